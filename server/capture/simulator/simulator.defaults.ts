import type { ActionKind, CaptureConfig } from '../capture.types.js';

/**
 * A photobooth-app style default configuration: the same groups and the same action shapes,
 * trimmed to what matters for Boothdeck. Everything here is data; the simulator treats it as
 * the real app treats its pydantic defaults.
 */

const trigger = (title: string, icon: string, pin: string, keycode: string): Record<string, unknown> => ({
  ui_trigger: { show_button: true, title, icon, use_custom_color: false, custom_color: '#196cb0' },
  gpio_trigger: { pin, trigger_on: 'pressed' },
  keyboard_trigger: { keycode },
});

export const FRAME_FILE = 'userdata/demoassets/frames/frame_image_photobooth-app.png';
export const POSTER_FRAME_FILE = 'userdata/demoassets/frames/pixabay-poster-2871536_1920.png';
export const BACKGROUND_FILE = 'userdata/demoassets/backgrounds/pink-7761356_1920.jpg';

/** Defaults of one entry of each action list, used to fill what a PATCH leaves out. */
export const actionItemDefaults: Record<ActionKind, Record<string, unknown>> = {
  image: {
    name: 'default action',
    jobcontrol: { countdown_capture: 2.0 },
    processing: {
      image_filter: 'original',
      fill_background_enable: false,
      fill_background_color: '#2d68c4',
      img_background_enable: false,
      img_background_file: null,
      img_frame_enable: false,
      img_frame_file: null,
      remove_background: false,
      texts_enable: false,
      texts: [],
    },
    trigger: trigger('', '', '', ''),
  },
  collage: {
    name: 'default action',
    jobcontrol: {
      countdown_capture: 2.0,
      countdown_capture_second_following: 1.0,
      ask_approval_each_capture: false,
      approve_autoconfirm_timeout: 15.0,
      show_individual_captures_in_gallery: false,
    },
    processing: {
      canvas_width: 1920,
      canvas_height: 1280,
      merge_definition: [],
      canvas_fill_background_enable: false,
      canvas_fill_background_color: '#2e6f40',
      canvas_img_front_enable: false,
      canvas_img_front_file: null,
      canvas_texts_enable: false,
      canvas_texts: [],
    },
    trigger: trigger('', '', '', ''),
  },
  animation: {
    name: 'default action',
    jobcontrol: {
      countdown_capture: 2.0,
      countdown_capture_second_following: 1.0,
      ask_approval_each_capture: false,
      approve_autoconfirm_timeout: 15.0,
      show_individual_captures_in_gallery: false,
    },
    processing: { canvas_width: 1500, canvas_height: 900, merge_definition: [] },
    trigger: trigger('', '', '', ''),
  },
  video: {
    name: 'default action',
    jobcontrol: { countdown_capture: 2.0 },
    processing: { video_duration: 5, boomerang: false, video_framerate: 25 },
    trigger: trigger('', '', '', ''),
  },
  multicamera: {
    name: 'default action',
    jobcontrol: { countdown_capture: 2.0, show_individual_captures_in_gallery: false },
    processing: { canvas_width: 1500, canvas_height: 900, duration: 125, image_filter: 'original' },
    trigger: trigger('', '', '', ''),
  },
};

export function defaultConfig(adminPassword: string, version: '8.0' | '8.7' | '9' = '8.7'): CaptureConfig {
  const config: CaptureConfig = {
    common: {
      language: 'fr',
      admin_password: adminPassword,
      logging_level: 'DEBUG',
      users_delete_to_recycle_dir: true,
    },
    actions: {
      image: [
        {
          name: 'Photo simple',
          jobcontrol: { countdown_capture: 2.0 },
          processing: {
            image_filter: 'original',
            fill_background_enable: false,
            fill_background_color: '#0000ff',
            img_background_enable: true,
            img_background_file: BACKGROUND_FILE,
            img_frame_enable: true,
            img_frame_file: FRAME_FILE,
            remove_background: false,
            texts_enable: true,
            texts: [{ text: 'Boothdeck', pos_x: 1300, pos_y: 1250, rotate: 0, font_size: 30, color: '#333333' }],
          },
          trigger: trigger('Image', 'photo_camera', '27', 'i'),
        },
      ],
      collage: [
        {
          name: 'Collage',
          jobcontrol: {
            countdown_capture: 2.0,
            countdown_capture_second_following: 1.0,
            ask_approval_each_capture: true,
            approve_autoconfirm_timeout: 15.0,
            show_individual_captures_in_gallery: true,
          },
          processing: {
            canvas_width: 1920,
            canvas_height: 1280,
            merge_definition: [
              { description: 'left', pos_x: 160, pos_y: 220, width: 510, height: 725, rotate: 0 },
              { description: 'right', pos_x: 1245, pos_y: 220, width: 510, height: 725, rotate: 0 },
            ],
            canvas_img_front_enable: true,
            canvas_img_front_file: POSTER_FRAME_FILE,
            canvas_texts_enable: false,
            canvas_texts: [],
          },
          trigger: trigger('Collage', 'auto_awesome_mosaic', '22', 'c'),
        },
      ],
      animation: [
        {
          name: 'Animation',
          jobcontrol: {
            countdown_capture: 2.0,
            countdown_capture_second_following: 0.5,
            ask_approval_each_capture: false,
            approve_autoconfirm_timeout: 15.0,
            show_individual_captures_in_gallery: false,
          },
          processing: { canvas_width: 1500, canvas_height: 900, merge_definition: [{ duration: 2000 }, { duration: 2000 }] },
          trigger: trigger('Animation', 'gif_box', '24', 'g'),
        },
      ],
      video: [
        {
          name: 'Video',
          jobcontrol: { countdown_capture: 2.0 },
          processing: { video_duration: 5, boomerang: true, video_framerate: 15 },
          trigger: trigger('Video', 'movie', '25', 'v'),
        },
      ],
      multicamera: [],
    },
    share: { sharing_enabled: true, share_custom_qr_url: '', actions: [] },
    mediaprocessing: {
      full_still_length: 1500,
      preview_still_length: 1200,
      thumbnail_still_length: 400,
      // photobooth-app's defaults since 8.5: animations in animated WebP, wigglegrams in MP4.
      fileformat_animations: 'webp',
      fileformat_multicamera: 'mp4',
    },
    uisettings: {
      show_gallery_on_frontpage: true,
      gallery_show_delete: true,
      gallery_show_download: true,
      gallery_show_print: false,
      enable_automatic_slideshow: true,
    },
    backends: { enabled_main_backend: 'VirtualCamera', countdown_camera_capture_offset: 0.2 },
    hardwareinputoutput: { keyboard_input_enabled: true, gpio_enabled: false, gpio_pin_shutdown: 17, gpio_pin_reboot: 18 },
    misc: { secret_key: 'simulator-secret' },
  };
  if (version === '8.0') {
    for (const entry of (config.actions as { image: { processing: Record<string, unknown> }[] }).image) {
      delete entry.processing.remove_background;
      entry.processing.fill_background_color = 'blue';
    }
  }
  // photobooth-app 8 has two groups more, after `share`, which 9 dropped; 9 ships a wigglegram.
  if (version === '9') {
    (config.actions as Record<string, unknown[]>).multicamera = [
      {
        name: 'Wigglegram',
        jobcontrol: { countdown_capture: 2.0, show_individual_captures_in_gallery: false },
        processing: { duration: 125, image_filter: 'original' },
        trigger: trigger('Wigglegram', '3d', '12', 'w'),
      },
    ];
    return config;
  }
  const { common, actions, share, ...rest } = config;
  return {
    common,
    actions,
    share,
    qrshare: { enabled: false, shareservice_url: '', enabled_custom: false, share_custom_qr_url: '' },
    filetransfer: { enabled: false, target_folder_name: 'photobooth' },
    ...rest,
  };
}

/** The item defaults of one release: 8.0 lacks `remove_background` and fills with blue and green. */
export function actionItemDefaultsFor(version: '8.0' | '8.7' | '9'): Record<ActionKind, Record<string, unknown>> {
  const items = structuredClone(actionItemDefaults);
  if (version === '8.0') {
    const image = items.image.processing as Record<string, unknown>;
    delete image.remove_background;
    image.fill_background_color = 'blue';
    (items.collage.processing as Record<string, unknown>).canvas_fill_background_color = 'green';
  }
  return items;
}
