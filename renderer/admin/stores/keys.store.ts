import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { GalleryLink } from '../../../server/contract/photos.contract.js';
import { eventsService } from '../services/events.service.js';
import { sessionService } from '../services/session.service.js';
import { useSessionStore } from './session.store.js';

/** The owner's changes of the two PINs, and what the client's card shows. */
export const useKeysStore = defineStore('keys', () => {
  const session = useSessionStore();
  const galleryLink = ref<GalleryLink | null>(null);

  async function setEventPin(pin: string): Promise<void> {
    await sessionService.setEventPin(pin);
    await session.refresh();
  }

  async function clearEventPin(): Promise<void> {
    await sessionService.clearEventPin();
    await session.refresh();
  }

  async function changeOwnerPin(currentPin: string, newPin: string): Promise<void> {
    await sessionService.changeOwnerPin(currentPin, newPin);
    // A short owner PIN is flagged until it changes: the flag goes with the fresh status.
    await session.refresh();
  }

  /** The gallery's address and QR code for the card; the card prints without them if they fail. */
  async function loadGalleryLink(): Promise<void> {
    try {
      galleryLink.value = await eventsService.galleryLink();
    } catch {
      galleryLink.value = null;
    }
  }

  return { galleryLink, setEventPin, clearEventPin, changeOwnerPin, loadGalleryLink };
});
