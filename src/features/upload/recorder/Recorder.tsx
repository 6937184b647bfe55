import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useRef, useState } from "react";
import { db, type RecordingMode, type RecordingRow } from "../../../db";
import { formatDuration } from "../../../lib/format";
import { Button } from "../../../ui/Button";
import { Meter } from "../../../ui/Meter";
import { RadioGroup } from "../../../ui/RadioGroup";
import { worker } from "../../../worker";
import { useAddFiles } from "../useAddFiles";
import { canRecord, canRecordScreen, CaptureError, fileTypeOf, levelMeter, openCapture, pickRecordingType, TIMESLICE_MS, type Capture, type CaptureProblem } from "./capture";
import "./recorder.css";

const COUNTDOWN_SECONDS = 3;
/** How often the timer and the level meter are redrawn. */
const TICK_MS = 100;

const PROBLEMS: Record<CaptureProblem, MessageDescriptor> = {
  unsupported: msg`This browser cannot record video. Use a recent Chrome, Edge, Firefox or Safari, or upload a file instead.`,
  screenUnsupported: msg`This browser cannot record the screen. Record with the camera, or upload a file instead.`,
  denied: msg`Access to the camera, microphone or screen was refused. Allow it in the browser's site settings, then try again.`,
  noDevice: msg`No camera or microphone was found. Connect one, then try again.`,
  inUse: msg`The camera or microphone is busy in another app. Close it there, then try again.`,
  failed: msg`Recording could not start. Try again, or upload a file instead.`,
};

type Phase =
  | { name: "idle" }
  | { name: "starting" }
  | { name: "countdown"; left: number }
  | { name: "recording"; paused: boolean }
  | { name: "stopping" }
  | { name: "review"; recordingId: string; file: File; url: string; durationSeconds: number };

/** What one session of recording holds between renders. */
interface Session {
  capture: Capture;
  meter: ReturnType<typeof levelMeter> | null;
  recorder: MediaRecorder | null;
  recordingId: string | null;
  chunks: Blob[];
  /** Chunks reach the worker one after another, in order. */
  sending: Promise<unknown>;
  seq: number;
  /** Recorded milliseconds before the current stretch, and when the current stretch began (null while paused). */
  recordedMs: number;
  since: number | null;
  name: string;
  type: { mime: string; extension: string };
  /** MediaRecorder's mimeType, codecs included. */
  recorderType: string;
}

const elapsedMs = (s: Session, now = performance.now()) => s.recordedMs + (s.since === null ? 0 : now - s.since);

/** A file name for a recording, from when it began: "Recording 2026-11-25 04.31.07.webm". */
function recordingName(prefix: string, at: Date, extension: string) {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${prefix} ${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}.${pad(at.getMinutes())}.${pad(at.getSeconds())}.${extension}`;
}

/**
 * SPEC §2 Upload screen, import variant (issue 17): records the camera, the screen, or the screen with the
 * camera in a corner, with the microphone. A countdown, pause and resume, a level meter, then a preview to keep
 * or discard. While it records, every second goes to IndexedDB and on to the server (workers/recordings.ts);
 * a kept recording joins the upload list like a dropped file.
 */
export default function Recorder({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useLingui();
  const { add, adding } = useAddFiles();
  const [mode, setMode] = useState<RecordingMode>("camera");
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  const [problem, setProblem] = useState<CaptureProblem | null>(() => (canRecord() ? null : "unsupported"));
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const session = useRef<Session | null>(null);
  const live = useRef<HTMLVideoElement>(null);
  const supported = canRecord();
  const screenSupported = canRecordScreen();
  // Recordings left by a closed or crashed tab: kept here and on the server, to keep or discard.
  const recordings = useLiveQuery(() => db.recordings.toArray(), []) ?? [];
  const current = session.current?.recordingId ?? (phase.name === "review" ? phase.recordingId : null);
  const interrupted = recordings.filter((r) => r.id !== current);

  useEffect(() => () => release(), []);
  useEffect(() => {
    if (phase.name !== "review") return;
    return () => URL.revokeObjectURL(phase.url);
  }, [phase]);

  // The countdown, then the recorder starts.
  useEffect(() => {
    if (phase.name !== "countdown") return;
    const timer = setTimeout(() => (phase.left > 1 ? setPhase({ name: "countdown", left: phase.left - 1 }) : void begin()), 1000);
    return () => clearTimeout(timer);
  }, [phase]);

  // The timer and the level meter while the camera is open.
  useEffect(() => {
    if (phase.name !== "recording" && phase.name !== "countdown") return;
    const timer = setInterval(() => {
      const s = session.current;
      if (!s) return;
      setElapsed(elapsedMs(s) / 1000);
      setLevel(s.meter?.read() ?? 0);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [phase.name]);

  function release() {
    const s = session.current;
    if (!s) return;
    if (s.recorder && s.recorder.state !== "inactive") {
      s.recorder.ondataavailable = null;
      s.recorder.onstop = null;
      s.recorder.stop();
    }
    s.meter?.close();
    s.capture.release();
    session.current = null;
    if (live.current) live.current.srcObject = null;
  }

  async function start() {
    setProblem(null);
    setPhase({ name: "starting" });
    const type = pickRecordingType();
    if (!type) {
      setProblem("unsupported");
      return setPhase({ name: "idle" });
    }
    try {
      const capture = await openCapture(mode);
      let meter: Session["meter"] = null;
      try {
        meter = levelMeter(capture.microphone);
      } catch {
        // No Web Audio: the recording works without a meter.
      }
      const fileType = fileTypeOf(type);
      session.current = {
        capture,
        meter,
        recorder: null,
        recordingId: null,
        chunks: [],
        sending: Promise.resolve(),
        seq: 0,
        recordedMs: 0,
        since: null,
        name: recordingName(t`Recording`, new Date(), fileType.extension),
        type: fileType,
        recorderType: type,
      };
      capture.onEnded(() => void stop());
      if (live.current) {
        live.current.srcObject = capture.stream;
        void live.current.play().catch(() => undefined);
      }
      setElapsed(0);
      setPhase({ name: "countdown", left: COUNTDOWN_SECONDS });
    } catch (error) {
      release();
      setProblem(error instanceof CaptureError ? error.problem : "failed");
      setPhase({ name: "idle" });
    }
  }

  async function begin() {
    const s = session.current;
    if (!s) return;
    let recorder: MediaRecorder;
    try {
      recorder = new MediaRecorder(s.capture.stream, { mimeType: s.recorderType });
    } catch {
      release();
      setProblem("unsupported");
      return setPhase({ name: "idle" });
    }
    s.recorder = recorder;
    // Named here first, so the list of interrupted recordings never takes this one for one of them.
    const id = crypto.randomUUID();
    s.recordingId = id;
    await worker.beginRecording({ id, name: s.name, mime: s.type.mime, mode });
    recorder.ondataavailable = (event) => {
      if (event.data.size === 0) return;
      s.chunks.push(event.data);
      const seq = s.seq++;
      const seconds = elapsedMs(s) / 1000;
      s.sending = s.sending.then(() => worker.appendRecording(id, seq, event.data, seconds)).catch(() => undefined);
    };
    recorder.onstop = () => void finish(s);
    recorder.start(TIMESLICE_MS);
    s.since = performance.now();
    setPhase({ name: "recording", paused: false });
  }

  function pause() {
    const s = session.current;
    if (!s?.recorder || s.recorder.state !== "recording") return;
    s.recorder.pause();
    s.recordedMs = elapsedMs(s);
    s.since = null;
    setPhase({ name: "recording", paused: true });
  }

  function resume() {
    const s = session.current;
    if (!s?.recorder || s.recorder.state !== "paused") return;
    s.recorder.resume();
    s.since = performance.now();
    setPhase({ name: "recording", paused: false });
  }

  async function stop() {
    const s = session.current;
    if (!s) return;
    if (!s.recorder || s.recorder.state === "inactive") {
      // Stopped during the countdown: nothing was recorded.
      release();
      return setPhase({ name: "idle" });
    }
    s.recordedMs = elapsedMs(s);
    s.since = null;
    setPhase({ name: "stopping" });
    s.recorder.stop();
  }

  async function finish(s: Session) {
    const durationSeconds = s.recordedMs / 1000;
    await s.sending;
    const id = s.recordingId!;
    await worker.finishRecording(id, durationSeconds);
    const file = new File(s.chunks, s.name, { type: s.type.mime });
    s.recorder = null;
    release();
    setPhase({ name: "review", recordingId: id, file, url: URL.createObjectURL(file), durationSeconds });
  }

  async function keep(recordingId: string, file: File, durationSeconds: number) {
    const added = await add([file], { durationSeconds, recordingId });
    if (added > 0 && phase.name === "review" && phase.recordingId === recordingId) setPhase({ name: "idle" });
  }

  async function discard(recordingId: string) {
    await worker.discardRecording(recordingId);
    if (phase.name === "review" && phase.recordingId === recordingId) setPhase({ name: "idle" });
  }

  const left = phase.name === "countdown" ? phase.left : 0;
  const capturing = phase.name === "starting" || phase.name === "countdown" || phase.name === "recording" || phase.name === "stopping";
  const modes: { id: RecordingMode; label: string }[] = [
    { id: "camera", label: t`Camera` },
    ...(screenSupported ? [{ id: "screen" as const, label: t`Screen` }, { id: "screenCamera" as const, label: t`Screen and camera` }] : []),
  ];

  return (
    <section className="recorder" aria-labelledby="recorder-title">
      <h3 id="recorder-title" className="recorder-title">
        <Trans>Record a video</Trans>
      </h3>
      {problem && (
        <p className="field-error recorder-problem" role="alert">
          {i18n._(PROBLEMS[problem])}
        </p>
      )}

      {interrupted.map((row) => (
        <Interrupted key={row.id} row={row} adding={adding} onKeep={keep} onDiscard={discard} />
      ))}

      {supported && phase.name !== "review" && (
        <>
          {!capturing && (
            <RadioGroup<RecordingMode> label={t`What to record`} name="recording-mode" options={modes} value={mode} onChange={setMode} />
          )}
          <div className="recorder-stage" hidden={!capturing}>
            <video ref={live} className="recorder-live" muted playsInline aria-label={t`Live picture`} />
            {phase.name === "countdown" && (
              <p className="recorder-countdown" role="status" aria-live="assertive">
                <Trans>Recording starts in {left}</Trans>
              </p>
            )}
          </div>
          {capturing && (
            <div className="recorder-status">
              <p className="recorder-time" role="timer" aria-label={t`Recorded time`}>
                {phase.name === "recording" && <span className="recorder-dot" data-paused={phase.paused || undefined} aria-hidden="true" />}
                {formatDuration(Math.floor(elapsed))}
                {phase.name === "recording" && phase.paused && (
                  <span className="muted">
                    {" "}
                    <Trans>Paused</Trans>
                  </span>
                )}
              </p>
              <Meter label={t`Microphone level`} value={level} valueLabel={`${Math.round(level)} %`} />
            </div>
          )}
          <div className="recorder-actions">
            {!capturing && (
              <Button onPress={() => void start()}>
                <Trans>Start recording</Trans>
              </Button>
            )}
            {!capturing && interrupted.length === 0 && (
              <Button variant="ghost" onPress={onClose}>
                <Trans>Close the recorder</Trans>
              </Button>
            )}
            {phase.name === "starting" && (
              <Button isPending isDisabled>
                <Trans>Start recording</Trans>
              </Button>
            )}
            {phase.name === "recording" &&
              (phase.paused ? (
                <Button variant="secondary" onPress={resume}>
                  <Trans>Resume</Trans>
                </Button>
              ) : (
                <Button variant="secondary" onPress={pause}>
                  <Trans>Pause</Trans>
                </Button>
              ))}
            {(phase.name === "recording" || phase.name === "countdown" || phase.name === "stopping") && (
              <Button variant="danger" onPress={() => void stop()} isPending={phase.name === "stopping"}>
                <Trans>Stop recording</Trans>
              </Button>
            )}
          </div>
        </>
      )}

      {!supported && (
        <div className="recorder-actions">
          <Button variant="ghost" onPress={onClose}>
            <Trans>Close the recorder</Trans>
          </Button>
        </div>
      )}

      {phase.name === "review" && (
        <div className="recorder-review">
          <video className="recorder-playback" src={phase.url} controls playsInline aria-label={t`Recording preview`} />
          <p className="muted">
            {phase.file.name} · {formatDuration(phase.durationSeconds)}
          </p>
          <div className="recorder-actions">
            <Button onPress={() => void keep(phase.recordingId, phase.file, phase.durationSeconds)} isPending={adding}>
              <Trans>Keep recording</Trans>
            </Button>
            <Button variant="secondary" onPress={() => void discard(phase.recordingId)}>
              <Trans>Discard</Trans>
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}

/** A recording a closed or crashed tab left behind: watch it, keep it or discard it. */
function Interrupted({ row, adding, onKeep, onDiscard }: { row: RecordingRow; adding: boolean; onKeep: (id: string, file: File, seconds: number) => Promise<void>; onDiscard: (id: string) => Promise<void> }) {
  const { t } = useLingui();
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    let gone = false;
    void (async () => {
      // Whatever the tab was doing, this recording is over: the stream sends what is left and its length.
      if (row.status === "recording") await worker.finishRecording(row.id);
      const blob = await worker.recordingBlob(row.id);
      if (!blob || gone) return;
      const kept = new File([blob], row.name, { type: row.mime });
      made = URL.createObjectURL(kept);
      setFile(kept);
      setUrl(made);
    })();
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [row.id]);
  return (
    <div className="recorder-review recorder-interrupted" role="group" aria-label={t`Interrupted recording`}>
      <p>
        <Trans>A recording was interrupted. What was recorded is kept: keep it or discard it.</Trans>
      </p>
      {url && <video className="recorder-playback" src={url} controls playsInline aria-label={t`Recording preview`} />}
      <p className="muted">
        {row.name} · {formatDuration(row.durationSeconds)}
      </p>
      <div className="recorder-actions">
        <Button onPress={() => file && void onKeep(row.id, file, row.durationSeconds)} isDisabled={!file} isPending={adding}>
          <Trans>Keep recording</Trans>
        </Button>
        <Button variant="secondary" onPress={() => void onDiscard(row.id)}>
          <Trans>Discard</Trans>
        </Button>
      </div>
    </div>
  );
}
