/**
 * Issue 17: the face detector's thread. BlazeFace (the model file ships inside @vladmandic/human's npm package) on
 * TensorFlow.js's WebAssembly backend (its SIMD .wasm ships inside @tensorflow/tfjs-backend-wasm): CPU only, no
 * network, no native binary. Plain JavaScript so that Node runs it as a worker without a TypeScript loader.
 *
 * The model is run directly (not through Human's pipeline) on the picture at its own shape: the graph's input and
 * its output reshapes are opened to any size, so a 16:9 sample is 256×144 rather than a 256×256 square that is
 * 44 % black padding, and the anchors are laid out for that grid. Boxes are decoded here as Human decodes them
 * (sigmoid score, non-maximum suppression, the box widened 1.4× and made square), so what is stored is unchanged.
 *
 * Messages in: { id, width, height, pixels: Uint8Array (RGB, width and height multiples of 16) }. Out: { id, faces:
 * [{ x, y, w, h, score }] } in fractions of the frame, or { id, error }. The first message out is { ready: true }
 * (or { error }).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";

const require = createRequire(import.meta.url);

/** BlazeFace's grids: a cell every 16 pixels with 2 anchors, then every 32 with 6 (as the model was trained). */
const GRIDS = [
  { stride: 16, anchors: 2 },
  { stride: 32, anchors: 6 },
];
/** Per anchor: a score logit, the box (centre offset x, y, size w, h) and 6 landmarks (unused). */
const VALUES_PER_ANCHOR = 17;
/** As Human widens BlazeFace's box (its `face.detector.scale`), so a stored box covers forehead to chin. */
const BOX_SCALE = 1.4;
const IOU_THRESHOLD = 0.3;
const minScore = workerData?.minScore ?? 0.5;
const maxFaces = workerData?.maxFaces ?? 10;

/** The output reshapes' shapes ([1, anchors, values]) become [1, -1, values]: the anchor count follows the input. */
const RESHAPE_SHAPE = /\/(classificators|regressors)_\d\/shape$/;

async function loadModel(tf, converter) {
  const file = path.join(path.dirname(require.resolve("@vladmandic/human")), "..", "models", "blazeface.json");
  const json = JSON.parse(await readFile(file, "utf8"));
  for (const node of json.modelTopology.node) {
    if (node.op !== "Placeholder") continue;
    const dims = node.attr.shape.shape.dim;
    dims[1].size = "-1";
    dims[2].size = "-1";
  }
  const weightSpecs = [];
  const parts = [];
  for (const group of json.weightsManifest) {
    weightSpecs.push(...group.weights);
    for (const part of group.paths) parts.push(await readFile(path.join(path.dirname(file), part)));
  }
  const all = Buffer.concat(parts);
  const weights = new DataView(all.buffer, all.byteOffset, all.byteLength);
  let offset = 0;
  for (const spec of weightSpecs) {
    const count = spec.shape.reduce((a, b) => a * b, 1);
    if (RESHAPE_SHAPE.test(spec.name) && spec.dtype === "int32" && count === 3) weights.setInt32(offset + 4, -1, true);
    offset += count * 4; // float32 and int32 only, unquantised (checked below)
  }
  if (offset !== all.byteLength) throw new Error("unexpected BlazeFace weights layout");
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
  const model = await converter.loadGraphModel(tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs, weightData }));
  return model;
}

/** The anchors' centres (pixels) for an input of width × height, in the model's output order. */
function anchorsFor(width, height) {
  const centres = [];
  for (const { stride, anchors } of GRIDS) {
    for (let gy = 0; gy < Math.ceil(height / stride); gy++) {
      for (let gx = 0; gx < Math.ceil(width / stride); gx++) {
        for (let n = 0; n < anchors; n++) centres.push((gx + 0.5) * stride, (gy + 0.5) * stride);
      }
    }
  }
  return Float32Array.from(centres);
}

async function start() {
  const tf = require("@tensorflow/tfjs-core");
  const wasm = require("@tensorflow/tfjs-backend-wasm");
  const converter = require("@tensorflow/tfjs-converter");
  wasm.setWasmPaths(`${path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"))}/`);
  await tf.setBackend("wasm");
  await tf.ready();
  const model = await loadModel(tf, converter);
  return { tf, model, anchors: new Map() };
}

const iou = (a, b) => {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / ((a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - inter);
};

/** The faces on one RGB frame, in fractions of it. */
async function detect({ tf, model, anchors }, width, height, pixels) {
  const key = `${width}x${height}`;
  if (!anchors.has(key)) anchors.set(key, anchorsFor(width, height));
  const centres = anchors.get(key);
  // The model takes values in [-1, 1].
  const input = new Float32Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) input[i] = pixels[i] / 127.5 - 1;
  const tensor = tf.tensor4d(input, [1, height, width, 3], "float32");
  const outputs = model.execute(tensor);
  tensor.dispose();
  // Two grids, each a score ([1, n, 1]) and a regression ([1, n, 16]) output; the finer grid comes first.
  const byGrid = [...outputs].sort((a, b) => b.shape[1] - a.shape[1] || a.shape[2] - b.shape[2]);
  const values = [];
  for (let g = 0; g < byGrid.length; g += 2) values.push({ scores: await byGrid[g].data(), boxes: await byGrid[g + 1].data(), n: byGrid[g].shape[1] });
  tf.dispose(outputs);
  if (values.reduce((sum, v) => sum + v.n, 0) * 2 !== centres.length) throw new Error(`BlazeFace's grid does not fit a ${key} input`);
  const found = [];
  let anchor = 0;
  for (const { scores, boxes, n } of values) {
    for (let i = 0; i < n; i++, anchor++) {
      const score = 1 / (1 + Math.exp(-scores[i]));
      if (score < minScore) continue;
      const b = i * (VALUES_PER_ANCHOR - 1);
      const cx = centres[anchor * 2] + boxes[b];
      const cy = centres[anchor * 2 + 1] + boxes[b + 1];
      // Widened and made square around its centre, in pixels.
      const half = (Math.max(boxes[b + 2], boxes[b + 3]) * BOX_SCALE) / 2;
      found.push({ x0: cx - half, y0: cy - half, x1: cx + half, y1: cy + half, score });
    }
  }
  found.sort((a, b) => b.score - a.score);
  const kept = [];
  for (const box of found) {
    if (kept.length >= maxFaces) break;
    if (kept.every((k) => iou(k, box) <= IOU_THRESHOLD)) kept.push(box);
  }
  return kept.map((b) => ({ x: b.x0 / width, y: b.y0 / height, w: (b.x1 - b.x0) / width, h: (b.y1 - b.y0) / height, score: b.score }));
}

const ready = start();
ready.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ error: String(error?.stack ?? error) }),
);

parentPort.on("message", async (message) => {
  const detector = await ready.catch(() => null);
  if (!detector) return;
  const { id, width, height, pixels } = message;
  try {
    parentPort.postMessage({ id, faces: await detect(detector, width, height, pixels) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
