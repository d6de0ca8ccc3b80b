/**
 * Spaces a French line may break at where French typography keeps the words together: before
 * a colon, ; ! ? and », after «, and between a number and its unit or noun. Each is described
 * with a few characters around it.
 */
export function breakingSpaces(text: string): string[] {
  const found: string[] = [];
  const around = (i: number): string => JSON.stringify(text.slice(Math.max(0, i - 12), i + 12));
  for (const m of text.matchAll(/ [:;!?»]/g)) found.push(`a breaking space before "${m[0][1]}": ${around(m.index)}`);
  for (const m of text.matchAll(/« /g)) found.push(`a breaking space after «: ${around(m.index)}`);
  for (const m of text.matchAll(/\d (?=[\p{L}%°])/gu)) found.push(`a breaking space between a number and its word: ${around(m.index)}`);
  return found;
}
