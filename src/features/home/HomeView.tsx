import { Trans } from "@lingui/react/macro";
import { useConfig, useCurrentUser } from "../../app/hooks";

/** Home (SPEC §2). A new user sees the welcome text and the way to the AI product. */
export function HomeView() {
  const user = useCurrentUser();
  const config = useConfig();
  return (
    <section className="home" aria-labelledby="home-title">
      <h1 id="home-title">
        <Trans>Welcome to Cutroom, {user?.first_name}!</Trans>
      </h1>
      <div className="card welcome-card">
        <p>
          <Trans>
            Upload a video and Cutroom cuts the silences, adds subtitles and music, and builds a storyboard you can refine
            scene by scene.
          </Trans>
        </p>
        <p>
          <Trans>New projects are created in our newer AI version.</Trans>
        </p>
        {config && (
          <a className="btn btn-primary" href={config.links.aiProduct} target="_blank" rel="noopener noreferrer">
            <Trans>Open the AI editor</Trans>
          </a>
        )}
      </div>
    </section>
  );
}
