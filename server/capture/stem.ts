const STEM = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{6})$/;

/** The capture app's stem is the local capture time, %Y%m%d-%H%M%S-%f. */
export function parseStem(stem: string): { time: number; second: string } | undefined {
  const m = STEM.exec(stem);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s, micro] = m.slice(1).map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s, Math.floor(micro / 1000));
  if (Number.isNaN(date.getTime()) || date.getMonth() !== mo - 1) return undefined;
  return { time: date.getTime(), second: `${m[1]}-${m[2]}-${m[3]}_${m[4]}-${m[5]}-${m[6]}` };
}
