import { useRunTempRoot } from './temp-root.js';

export default function globalSetup(): () => void {
  return useRunTempRoot('playwright');
}
