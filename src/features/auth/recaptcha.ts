interface Grecaptcha {
  ready(cb: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

let loading: Promise<Grecaptcha> | undefined;

/** reCAPTCHA v3 (invisible), used when the server is configured with reCAPTCHA keys. */
export async function recaptchaToken(siteKey: string, action = "register"): Promise<string> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onerror = () => {
      loading = undefined;
      reject(new Error("reCAPTCHA could not load"));
    };
    script.onload = () => {
      const g = (window as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (g) g.ready(() => resolve(g));
      else reject(new Error("reCAPTCHA did not start"));
    };
    document.head.append(script);
  });
  const g = await loading;
  return g.execute(siteKey, { action });
}
