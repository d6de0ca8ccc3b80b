import { useRunTempRoot } from './temp-root.js';

export default function setup(): () => void {
  return useRunTempRoot('vitest');
}
