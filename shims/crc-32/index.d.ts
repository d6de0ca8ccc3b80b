export const version: string;
export function buf(data: number[] | Uint8Array, seed?: number): number;
export function bstr(data: string, seed?: number): number;
export function str(data: string, seed?: number): number;
