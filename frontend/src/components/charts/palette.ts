/** Series colours: the editor's band colours, distinct and 3:1 on white. */
export const PALETTE = ["#2563eb", "#d97706", "#059669", "#db2777", "#7c3aed", "#0891b2"];

export const colourOf = (index: number): string => PALETTE[index % PALETTE.length]!;
