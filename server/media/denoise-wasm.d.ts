/** The RNNoise wasm build ships no types: an Emscripten module factory (see denoise.ts for what we use of it). */
declare module "@echogarden/rnnoise-wasm" {
  const RNNoise: (options?: Record<string, unknown>) => Promise<unknown>;
  export default RNNoise;
}
