/**
 * A tiny Standard MIDI File (format 1) writer: absolute-tick events in, SMF bytes out.
 * Only what the composer needs: notes, program/control changes, tempo, time and key signatures.
 */

export const PPQ = 480;

export type MidiEvent =
  | { tick: number; kind: "note"; channel: number; key: number; velocity: number; length: number }
  | { tick: number; kind: "program"; channel: number; program: number }
  | { tick: number; kind: "cc"; channel: number; controller: number; value: number }
  | { tick: number; kind: "tempo"; bpm: number }
  | { tick: number; kind: "timesig"; numerator: number; denominator: number }
  | { tick: number; kind: "keysig"; sharps: number; minor: boolean }
  | { tick: number; kind: "name"; text: string }
  | { tick: number; kind: "end" };

export interface MidiTrack {
  events: MidiEvent[];
}

const clamp7 = (n: number) => Math.max(0, Math.min(127, Math.round(n)));

function vlq(n: number): number[] {
  let value = Math.max(0, Math.round(n));
  const bytes = [value & 0x7f];
  value >>= 7;
  while (value > 0) {
    bytes.unshift((value & 0x7f) | 0x80);
    value >>= 7;
  }
  return bytes;
}

/** Raw (tick, bytes, order) messages; note-offs sort before note-ons at the same tick. */
interface Raw {
  tick: number;
  order: number;
  bytes: number[];
}

function expand(event: MidiEvent): Raw[] {
  switch (event.kind) {
    case "note": {
      const ch = event.channel & 0x0f;
      const key = clamp7(event.key);
      return [
        { tick: event.tick, order: 2, bytes: [0x90 | ch, key, Math.max(1, clamp7(event.velocity))] },
        { tick: event.tick + Math.max(1, Math.round(event.length)), order: 0, bytes: [0x80 | ch, key, 0] },
      ];
    }
    case "program":
      return [{ tick: event.tick, order: 1, bytes: [0xc0 | (event.channel & 0x0f), clamp7(event.program)] }];
    case "cc":
      return [{ tick: event.tick, order: 1, bytes: [0xb0 | (event.channel & 0x0f), clamp7(event.controller), clamp7(event.value)] }];
    case "tempo": {
      const us = Math.round(60_000_000 / event.bpm);
      return [{ tick: event.tick, order: 1, bytes: [0xff, 0x51, 0x03, (us >> 16) & 0xff, (us >> 8) & 0xff, us & 0xff] }];
    }
    case "timesig":
      return [
        {
          tick: event.tick,
          order: 1,
          bytes: [0xff, 0x58, 0x04, event.numerator, Math.round(Math.log2(event.denominator)), 24, 8],
        },
      ];
    case "keysig":
      return [{ tick: event.tick, order: 1, bytes: [0xff, 0x59, 0x02, event.sharps & 0xff, event.minor ? 1 : 0] }];
    case "name": {
      const text = [...Buffer.from(event.text, "utf8")];
      return [{ tick: event.tick, order: 1, bytes: [0xff, 0x03, ...vlq(text.length), ...text] }];
    }
    case "end":
      return [{ tick: event.tick, order: 3, bytes: [0xff, 0x2f, 0x00] }];
  }
}

function trackChunk(track: MidiTrack): Buffer {
  const raws = track.events.flatMap(expand);
  const last = raws.reduce((max, r) => Math.max(max, r.tick), 0);
  if (!track.events.some((e) => e.kind === "end")) raws.push({ tick: last, order: 3, bytes: [0xff, 0x2f, 0x00] });
  raws.sort((a, b) => a.tick - b.tick || a.order - b.order);
  const body: number[] = [];
  let now = 0;
  for (const raw of raws) {
    const tick = Math.max(now, Math.round(raw.tick));
    body.push(...vlq(tick - now), ...raw.bytes);
    now = tick;
  }
  const header = Buffer.alloc(8);
  header.write("MTrk", 0, "ascii");
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, Buffer.from(body)]);
}

/** Serialises tracks as a format-1 SMF with PPQ ticks per quarter note. */
export function writeSmf(tracks: MidiTrack[], ppq = PPQ): Buffer {
  const header = Buffer.alloc(14);
  header.write("MThd", 0, "ascii");
  header.writeUInt32BE(6, 4);
  header.writeUInt16BE(1, 8);
  header.writeUInt16BE(tracks.length, 10);
  header.writeUInt16BE(ppq, 12);
  return Buffer.concat([header, ...tracks.map(trackChunk)]);
}
