/**
 * Issue 17: the face detector's thread. BlazeFace (the model file ships inside @vladmandic/human's npm package)
 * on TensorFlow.js's WebAssembly backend (its .wasm ships inside @tensorflow/tfjs-backend-wasm): CPU only, no
 * network, no native binary. Plain JavaScript so that Node runs it as a worker without a TypeScript loader.
 *
 * Messages in: { id, width, height, pixels: Uint8Array (RGB) }. Out: { id, faces: [{ x, y, w, h, score }] } in
 * fractions of the frame, or { id, error }. The first message out is { ready: true } (or { error }).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";

const require = createRequire(import.meta.url);

/** Model files are read from the package's folder (tfjs in Node has no file:// loader without tfjs-node). */
function registerFileLoader(tf) {
  tf.io.registerLoadRouter((url) => {
    const href = Array.isArray(url) ? url[0] : url;
    if (typeof href !== "string" || !href.startsWith("file://")) return null;
    const file = href.slice("file://".length);
    return {
      async load() {
        const json = JSON.parse(await readFile(file, "utf8"));
        const weightSpecs = [];
        const parts = [];
        for (const group of json.weightsManifest ?? []) {
          weightSpecs.push(...group.weights);
          for (const part of group.paths) parts.push(await readFile(path.join(path.dirname(file), part)));
        }
        const all = Buffer.concat(parts);
        return {
          modelTopology: json.modelTopology,
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          weightSpecs,
          weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
          userDefinedMetadata: json.userDefinedMetadata,
        };
      },
    };
  });
}

async function start() {
  const tf = require("@tensorflow/tfjs-core");
  registerFileLoader(tf);
  // The package's "exports" name no Node-with-WASM entry, so it is loaded by its file next to the Node one.
  const humanDir = path.dirname(require.resolve("@vladmandic/human"));
  const { Human } = require(path.join(humanDir, "human.node-wasm.js"));
  const wasmDir = path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"));
  const modelDir = path.join(humanDir, "..", "models");
  const human = new Human({
    backend: "wasm",
    wasmPath: `${wasmDir}/`,
    modelBasePath: `file://${modelDir}/`,
    debug: false,
    async: false,
    warmup: "none",
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: workerData?.maxFaces ?? 10, minConfidence: workerData?.minScore ?? 0.5, iouThreshold: 0.3, skipFrames: 0, skipTime: 0 },
      mesh: { enabled: false },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  });
  await human.load();
  return human;
}

const ready = start();
ready.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ error: String(error?.stack ?? error) }),
);

parentPort.on("message", async (message) => {
  const human = await ready.catch(() => null);
  if (!human) return;
  const { id, width, height, pixels } = message;
  try {
    const input = human.tf.tensor4d(pixels, [1, height, width, 3], "float32");
    const result = await human.detect(input);
    input.dispose();
    const faces = result.face.map((f) => ({ x: f.boxRaw[0], y: f.boxRaw[1], w: f.boxRaw[2], h: f.boxRaw[3], score: f.boxScore ?? f.score }));
    parentPort.postMessage({ id, faces });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
