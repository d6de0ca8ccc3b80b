import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'vue/compiler-sfc';
import { breakingSpaces } from '../support/french-typography.js';
import { findHandNumbers, type HandNumber } from '../support/hand-numbers.js';

const I18N = path.resolve('renderer/shared/i18n/index.js');

/** Every way of writing a number by hand, beside the formatted ones and numbers that are data. */
const FIXTURES: Record<string, string> = {
  'hand.ts': `
import { t, formatNumber } from '${I18N}';
export { default as Hand } from './Hand.vue';
const seconds = (ms: number): string => String(Math.round(ms / 100) / 10);
export const budget = (ms: number): string => t('hw.diag.relayLimits', { max: 2, duty: 3, window: 4, budget: seconds(ms) });
export const fixed = (v: number): string => t('common.error.unknown', { message: v.toFixed(1) });
export const glued = (n: number): string => t('common.error.unknown', { message: \`\${n} s\` });
export const good = (v: number): string => t('common.error.unknown', { message: formatNumber(v, 1) }) + t('pinpad.wait', { seconds: v });
export const url = (id: number): string => \`/api/admin/actions/\${id}\`;
`,
  'Hand.vue': `<script setup lang="ts">
import { formatNumber, useI18n } from '${I18N}';
const props = defineProps<{ count: number; name: string }>();
const { t } = useI18n();
const label = (n: number): string => n + ' photos';
</script>

<template>
  <p>{{ props.count }}</p>
  <p :title="String(props.count)">{{ props.name }}</p>
  <p>{{ label(props.count) }}</p>
  <p>{{ t('pinpad.wait', { seconds: props.count }) }} {{ formatNumber(props.count, 1) }}</p>
  <p :data-testid="\`row-\${props.count}\`">{{ props.count.toLocaleString() }}</p>
</template>
`,
};

let found: HandNumber[] = [];
let fixtures = '';
beforeAll(() => {
  // Beside the project's packages, so that the fixtures find Vue's types as the renderer does.
  const cache = path.resolve('node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  fixtures = mkdtempSync(path.join(cache, 'hand-numbers-'));
  for (const [name, text] of Object.entries(FIXTURES)) writeFileSync(path.join(fixtures, name), text);
  // One program for both checks: building it reads the whole renderer with its types.
  found = findHandNumbers(fixtures);
}, 180_000);
afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

describe('every number the console and the gallery show goes through the locale’s formatting', () => {
  it('no renderer file turns a number into words by hand', () => {
    const ours = found.filter((h) => h.file.startsWith('renderer/'));
    expect(ours.map((h) => `${h.file}${h.line ? `:${h.line}` : ''} ${h.what}`)).toEqual([]);
  });

  it('the check finds each way of doing it, in a template and in code, and leaves the formatted ones and the data', () => {
    const caught = found.filter((h) => !h.file.startsWith('renderer/')).map((h) => `${h.file} ${h.what}`);
    expect(caught.sort()).toEqual(
      [
        'hand.ts String() of a number: String(Math.round(ms / 100) / 10)',
        'hand.ts toFixed() of a number: v.toFixed(1)',
        'hand.ts a number in a template string: n',
        'Hand.vue a number shown as it is: props.count',
        'Hand.vue String() of a number: String(props.count)',
        "Hand.vue a number added to a string: n + ' photos'",
      ].sort(),
    );
  });
});

describe('the templates leave French typography to the messages', () => {
  it('no template writes a French colon, « », ? or a unit after a number with a space of its own', () => {
    const root = path.resolve('renderer');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.vue'));
    const problems: string[] = [];
    interface Node {
      type: number;
      content?: string | { content?: string };
      children?: Node[];
      props?: { type: number; name: string; value?: { content: string } }[];
    }
    const TEXT = 2;
    const INTERPOLATION = 5;
    const ATTRIBUTE = 6;
    for (const file of files) {
      const { descriptor } = parse(readFileSync(path.join(root, file), 'utf8'), { filename: file });
      const walk = (node: Node): void => {
        const children = node.children ?? [];
        children.forEach((child, i) => {
          if (child.type === TEXT && typeof child.content === 'string') {
            const text = child.content.replace(/\s+/g, ' ');
            for (const p of breakingSpaces(text)) problems.push(`${file}: ${p}`);
            // "{{ n }} s": a unit written beside a number in the template, not in the message.
            if (children[i - 1]?.type === INTERPOLATION && /^ (?:s|ms|min|h|%|°C|px|lux|Go|Mo|Ko|cm|mm)\b/.test(text)) {
              problems.push(`${file}: a unit after a number, by hand: ${JSON.stringify(text.slice(0, 12))}`);
            }
          }
          for (const prop of child.props ?? []) {
            if (prop.type === ATTRIBUTE && prop.value)
              for (const p of breakingSpaces(prop.value.content)) problems.push(`${file} [${prop.name}]: ${p}`);
          }
          walk(child);
        });
      };
      if (descriptor.template?.ast) walk(descriptor.template.ast as unknown as Node);
    }
    expect(problems).toEqual([]);
  });
});
