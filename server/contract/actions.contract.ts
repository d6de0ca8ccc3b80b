export type ActionKind = 'image' | 'collage' | 'animation' | 'video' | 'multicamera';

export interface ActionGeneral {
  name: string;
  kind: ActionKind;
  /** Seconds of countdown before the capture, 0 to 20 in steps of 0.1. */
  countdown: number;
}

export interface ActionFrame {
  enabled: boolean;
  /** A path relative to the capture app's data folder, such as `userdata/frames/gold.png`. */
  file: string | null;
}

export interface ActionBackground {
  enabled: boolean;
  file: string | null;
  fill_enabled: boolean;
  fill_color: string;
}

/** Which of these an action has depends on its kind. */
export interface ActionProcessing {
  image_filter?: string;
  /** Null when the capture app's release has no such setting (8.0.x): the editor hides it. */
  remove_background?: boolean | null;
  texts_enabled?: boolean;
  boomerang?: boolean;
  video_duration?: number;
  /** Animation: the duration of each frame in ms, one per capture. */
  frames?: number[];
}

export interface ActionUiTrigger {
  show_button: boolean;
  title: string;
  /** A Material icon name, as the capture app's screen uses. */
  icon: string;
  use_custom_color: boolean;
  custom_color: string;
}

/** Derived from the current order every time; never stored. */
export interface ActionButton {
  /** 1-based place of the button on the booth's screen, or null when the button is hidden. */
  screen_position: number | null;
  trigger: { kind: ActionKind; index: number };
  /** The capture app's URL that starts this action. */
  trigger_path: string;
}

export interface BoothAction {
  index: number;
  general: ActionGeneral;
  /** Null for kinds that have no frame (animation, video, multicamera). */
  frame: ActionFrame | null;
  background: ActionBackground | null;
  processing: ActionProcessing;
  ui_trigger: ActionUiTrigger;
  button: ActionButton;
}

/** A value written to the capture app that it did not keep (read back after the write). */
export interface NotKeptField {
  /** The action's position (0-based), null for a setting outside the actions. */
  index: number | null;
  /** Boothdeck's dotted field name (`frame.file`), or the capture app's own path when Boothdeck has no name for it. */
  field: string;
  /** True when Boothdeck has a name for the field; false for a raw capture-app path. */
  known: boolean;
  /** dropped: the capture app has no such value any more; changed: it holds another one. */
  outcome: 'dropped' | 'changed';
}

export interface ActionsResponse {
  actions: BoothAction[];
  /** Changes whenever the list changes; send it back in If-Match to refuse stale writes. */
  version: string;
  /** After a change: every value the capture app did not keep, read back after the write; empty when all were. */
  not_kept?: NotKeptField[];
  /** After a change: false when the capture app's configuration could not be read back to check it. */
  verified?: boolean;
}

/** The changed action, with the whole list after the change so that a client need not reload. */
export interface ActionResponse extends ActionsResponse {
  index: number;
  action: BoothAction;
}

export interface PresetSummary {
  id: number;
  name: string;
  description: string;
  created_at: string;
  actions: { name: string; kind: ActionKind }[];
}

export interface UserFile {
  path: string;
  /** Where the console can show a small preview of it. */
  preview_url: string;
  /** What its folder says it is for: frames in a frames folder, backgrounds in a backgrounds folder. */
  folder: 'frames' | 'backgrounds' | 'other';
  /** Whether it has transparent pixels (what a frame needs); null when it could not be read. */
  transparent: boolean | null;
}
