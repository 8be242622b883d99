/**
 * Colour bands tie turns to their segment. Neighbouring segments always get different
 * colours, which is what an annotator checks at a boundary; the number is shown as well, so
 * colour is never the only cue.
 */
const BAND_COUNT = 6;

export function bandClass(segment: number): string {
  return segment < 0 ? "band-none" : `band-${segment % BAND_COUNT}`;
}
