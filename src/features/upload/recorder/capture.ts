import type { RecordingMode } from "../../../db";

/**
 * SPEC §2 Upload screen, import variant: webcam capture ideal 1280x800, max 1920x1080. The screen is taken
 * at most 1920x1080 too, and screen plus camera is drawn to one picture of the screen's size.
 */
export const CAMERA_VIDEO: MediaTrackConstraints = {
  width: { ideal: 1280, max: 1920 },
  height: { ideal: 800, max: 1080 },
  frameRate: { ideal: 30 },
};
export const SCREEN_VIDEO: MediaTrackConstraints = { width: { max: 1920 }, height: { max: 1080 }, frameRate: { ideal: 30 } };
export const MICROPHONE: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true };
/** MediaRecorder hands over a chunk this often: at most this much is lost with a crashed tab. */
export const TIMESLICE_MS = 1000;
export const PIP_FPS = 30;
/** The camera's picture in the screen: this share of the width, this far from the corner. */
const PIP_WIDTH_SHARE = 0.25;
const PIP_MARGIN_SHARE = 0.02;

/** MP4 (H.264/AAC) where the browser records it, WebM otherwise. */
export const RECORDING_TYPES = [
  "video/mp4;codecs=avc1.42E01F,mp4a.40.2",
  "video/mp4;codecs=avc1,mp4a.40.2",
  "video/webm;codecs=vp9,opus",
  "video/webm;codecs=vp8,opus",
  "video/webm",
] as const;

export function pickRecordingType(isTypeSupported: (type: string) => boolean = (type) => MediaRecorder.isTypeSupported(type)): string | null {
  return RECORDING_TYPES.find((type) => isTypeSupported(type)) ?? null;
}

/** The file's type and extension for a recorder type such as "video/webm;codecs=vp8,opus". */
export function fileTypeOf(recorderType: string): { mime: string; extension: string } {
  const mime = recorderType.split(";")[0]!.trim();
  return { mime, extension: mime === "video/mp4" ? "mp4" : "webm" };
}

/** Why recording cannot start, for the view to word. */
export type CaptureProblem = "unsupported" | "screenUnsupported" | "denied" | "noDevice" | "inUse" | "failed";

export function canRecord(): boolean {
  return typeof navigator !== "undefined" && !!navigator.mediaDevices?.getUserMedia && typeof MediaRecorder !== "undefined" && pickRecordingType() !== null;
}
export const canRecordScreen = () => typeof navigator !== "undefined" && !!navigator.mediaDevices?.getDisplayMedia;

/** A getUserMedia / getDisplayMedia failure by its DOMException name. */
export function problemOf(error: unknown): CaptureProblem {
  const name = (error as { name?: string } | null)?.name ?? "";
  if (name === "NotAllowedError" || name === "PermissionDeniedError" || name === "SecurityError") return "denied";
  if (name === "NotFoundError" || name === "DevicesNotFoundError" || name === "OverconstrainedError") return "noDevice";
  if (name === "NotReadableError" || name === "TrackStartError" || name === "AbortError") return "inUse";
  if (name === "NotSupportedError" || name === "TypeError") return "unsupported";
  return "failed";
}

export class CaptureError extends Error {
  constructor(readonly problem: CaptureProblem, cause?: unknown) {
    super(problem, { cause });
  }
}

/** What is being recorded: the stream MediaRecorder takes, what the preview shows, and how to let it all go. */
export interface Capture {
  /** Picture (camera, screen or both drawn together) and the microphone. */
  stream: MediaStream;
  /** The microphone alone, for the level meter. */
  microphone: MediaStream;
  /** Called when the person stops sharing the screen from the browser's own bar. */
  onEnded: (listener: () => void) => void;
  release: () => void;
}

const stopAll = (...streams: (MediaStream | null | undefined)[]) => {
  for (const stream of streams) stream?.getTracks().forEach((track) => track.stop());
};

async function ask<T>(get: () => Promise<T>): Promise<T> {
  try {
    return await get();
  } catch (error) {
    throw new CaptureError(problemOf(error), error);
  }
}

/** Opens the camera, the screen or both, and the microphone; throws CaptureError. */
export async function openCapture(mode: RecordingMode): Promise<Capture> {
  if (!canRecord()) throw new CaptureError("unsupported");
  if (mode !== "camera" && !canRecordScreen()) throw new CaptureError("screenUnsupported");
  const devices = navigator.mediaDevices;
  if (mode === "camera") {
    const stream = await ask(() => devices.getUserMedia({ video: CAMERA_VIDEO, audio: MICROPHONE }));
    return {
      stream,
      microphone: new MediaStream(stream.getAudioTracks()),
      onEnded: (listener) => stream.getVideoTracks()[0]?.addEventListener("ended", listener),
      release: () => stopAll(stream),
    };
  }
  // The screen first: the browser's picker is what the person answers first.
  const screen = await ask(() => devices.getDisplayMedia({ video: SCREEN_VIDEO, audio: false }));
  let camera: MediaStream | null = null;
  let microphone: MediaStream;
  try {
    if (mode === "screenCamera") {
      camera = await ask(() => devices.getUserMedia({ video: CAMERA_VIDEO, audio: MICROPHONE }));
      microphone = new MediaStream(camera.getAudioTracks());
    } else {
      microphone = await ask(() => devices.getUserMedia({ audio: MICROPHONE }));
    }
  } catch (error) {
    stopAll(screen);
    throw error;
  }
  const screenTrack = screen.getVideoTracks()[0]!;
  if (mode === "screen") {
    return {
      stream: new MediaStream([screenTrack, ...microphone.getAudioTracks()]),
      microphone,
      onEnded: (listener) => screenTrack.addEventListener("ended", listener),
      release: () => stopAll(screen, microphone),
    };
  }
  const picture = await pictureInPicture(screen, camera!);
  return {
    stream: new MediaStream([...picture.stream.getVideoTracks(), ...microphone.getAudioTracks()]),
    microphone,
    onEnded: (listener) => screenTrack.addEventListener("ended", listener),
    release: () => {
      picture.stop();
      stopAll(screen, camera, picture.stream);
    },
  };
}

function playing(stream: MediaStream): Promise<HTMLVideoElement> {
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  return new Promise((resolve, reject) => {
    video.onloadedmetadata = () => void video.play().then(() => resolve(video), reject);
    video.onerror = () => reject(new CaptureError("failed"));
  });
}

/**
 * The screen with the camera in its lower right corner, drawn on a canvas. The drawing is paced by a worker's
 * timer: the page's own timers slow to once a second while the person looks at another tab or window.
 */
export async function pictureInPicture(screen: MediaStream, camera: MediaStream) {
  const [screenVideo, cameraVideo] = await Promise.all([playing(screen), playing(new MediaStream(camera.getVideoTracks()))]);
  const canvas = document.createElement("canvas");
  const size = () => {
    const scale = Math.min(1, 1920 / (screenVideo.videoWidth || 1280), 1080 / (screenVideo.videoHeight || 720));
    // Even sizes: H.264 needs them.
    const width = Math.round(((screenVideo.videoWidth || 1280) * scale) / 2) * 2;
    const height = Math.round(((screenVideo.videoHeight || 720) * scale) / 2) * 2;
    if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
  };
  size();
  const context = canvas.getContext("2d")!;
  const draw = () => {
    size();
    context.drawImage(screenVideo, 0, 0, canvas.width, canvas.height);
    const w = Math.round(canvas.width * PIP_WIDTH_SHARE);
    const h = Math.round(w * ((cameraVideo.videoHeight || 800) / (cameraVideo.videoWidth || 1280)));
    const margin = Math.round(canvas.width * PIP_MARGIN_SHARE);
    context.drawImage(cameraVideo, canvas.width - w - margin, canvas.height - h - margin, w, h);
  };
  draw();
  const ticker = new Worker(new URL("./ticker.worker.ts", import.meta.url), { type: "module" });
  ticker.onmessage = draw;
  ticker.postMessage(Math.round(1000 / PIP_FPS));
  const stream = canvas.captureStream(PIP_FPS);
  return {
    stream,
    stop: () => {
      ticker.terminate();
      screenVideo.srcObject = null;
      cameraVideo.srcObject = null;
    },
  };
}

/** The microphone's level, 0–100 (−60 dBFS to 0 dBFS), read from a Web Audio AnalyserNode. */
export function levelMeter(microphone: MediaStream) {
  const audio = new AudioContext();
  const source = audio.createMediaStreamSource(microphone);
  const analyser = audio.createAnalyser();
  analyser.fftSize = 1024;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  return {
    read(): number {
      analyser.getFloatTimeDomainData(samples);
      return levelOf(samples);
    },
    close: () => void audio.close().catch(() => undefined),
  };
}

/** RMS of the samples as a 0–100 level over −60…0 dBFS. */
export function levelOf(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  const rms = Math.sqrt(sum / Math.max(1, samples.length));
  if (rms <= 0) return 0;
  const db = 20 * Math.log10(rms);
  return Math.max(0, Math.min(100, ((db + 60) / 60) * 100));
}
