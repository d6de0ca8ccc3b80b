import { describe, expect, it } from 'vitest';
import { ICON_CHOICES, iconLabel, searchIcons } from '../../renderer/admin/components/actions/icon-choices.js';

describe('the icon picker’s search', () => {
  it('finds icons by French or English words, with or without accents', () => {
    expect(searchIcons('fête').map((c) => c.name)).toContain('celebration');
    expect(searchIcons('fete').map((c) => c.name)).toContain('celebration');
    expect(searchIcons('party').map((c) => c.name)).toContain('celebration');
    expect(searchIcons('appareil').map((c) => c.name)).toContain('photo_camera');
    expect(searchIcons('  ')).toHaveLength(ICON_CHOICES.length);
    expect(searchIcons('zzz')).toEqual([]);
  });

  it('names an icon in the console’s language, and nothing for one outside the list', () => {
    expect(iconLabel('photo_camera', 'fr')).toBe('Appareil photo');
    expect(iconLabel('photo_camera', 'en')).toBe('Camera');
    expect(iconLabel('not_an_icon', 'fr')).toBeNull();
  });

  it('lists each icon once, the capture app’s own defaults first', () => {
    const names = ICON_CHOICES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.slice(0, 4)).toEqual(['photo_camera', 'auto_awesome_mosaic', 'gif_box', 'movie']);
  });
});
