import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { UserFile } from '../../../server/contract/actions.contract.js';
import { actionsService } from '../services/actions.service.js';
import { describeError } from '../../shared/error-text.js';

/** The capture app's userdata images, offered for frames and backgrounds. */
export const useUserFilesStore = defineStore('userfiles', () => {
  const files = ref<UserFile[]>([]);
  const error = ref<string | null>(null);

  async function load(): Promise<void> {
    try {
      files.value = (await actionsService.userFiles()).files;
      error.value = null;
    } catch (err) {
      error.value = describeError(err, { reading: true });
    }
  }

  const previewOf = (path: string | null): string | null => {
    if (!path) return null;
    return files.value.find((f) => f.path === path)?.preview_url ?? `/api/admin/userfiles/preview?path=${encodeURIComponent(path)}`;
  };

  return { files, error, load, previewOf };
});
