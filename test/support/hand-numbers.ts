import { readdirSync } from 'node:fs';
import path from 'node:path';
import { proxyCreateProgram } from '@volar/typescript';
import { createParsedCommandLine, createVueLanguagePlugin } from '@vue/language-core';
import ts from 'typescript';

/**
 * Finds numbers the renderer turns into words by hand: `String(n)`, `n.toString()`,
 * `n.toFixed(1)`, `${n}` or `'…' + n` in what a person reads, and a bare number shown in a
 * template (`{{ n }}`), instead of going through the locale's formatting (`t()` formats the
 * numbers it is given, `formatNumber`, `Intl`, `toLocaleString`). "reste 14.5 s" was one.
 *
 * What a person reads, here: what a template shows (`{{ … }}`, and the title, aria-label,
 * placeholder, alt and label it sets), the values given to `t()`, a notice's text and a
 * confirmation's words. Each is searched, and so are the functions, computed values and
 * constants of the renderer it uses, a few calls deep. Numbers written as data (an address, a
 * CSS length, a test id, a day as YYYY-MM-DD) are not words, and are left alone where they
 * are not shown.
 *
 * The templates are read as vue-tsc reads them (@vue/language-core), with types, so that
 * `{{ count }}` is caught when `count` is a number and left when it is a string.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const RENDERER = path.join(ROOT, 'renderer') + path.sep;
/** The formatting itself. */
const FORMATTERS = [path.join(ROOT, 'renderer/shared/i18n/index.ts')];
/** Template attributes a person reads (or hears). */
const SHOWN_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'ariaLabel']);
const FOLLOW_DEPTH = 3;

export interface HandNumber {
  file: string;
  line: number;
  what: string;
}

function program(extraRoots: readonly string[]): ts.Program {
  const configPath = path.join(ROOT, 'tsconfig.renderer.json');
  const vueOptions = createParsedCommandLine(ts, ts.sys, configPath).vueOptions;
  const host: ts.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, host, undefined, undefined, [
    { extension: '.vue', isMixedContent: true, scriptKind: ts.ScriptKind.Deferred },
  ]);
  if (!parsed) throw new Error('tsconfig.renderer.json could not be read');
  const create = proxyCreateProgram(ts, ts.createProgram, (_ts, options) => ({
    languagePlugins: [createVueLanguagePlugin(ts, options.options, vueOptions, (id: string) => id)],
  }));
  return create({ rootNames: [...parsed.fileNames, ...extraRoots], options: parsed.options, host: ts.createCompilerHost(parsed.options) });
}

/**
 * Every renderer file checked. `fixtures`, a folder of test files that must be caught, is checked
 * as the renderer's own: its .ts files are added (a .vue file is read when one of them imports it).
 */
export function findHandNumbers(fixtures?: string): HandNumber[] {
  const extraRoots = fixtures
    ? readdirSync(fixtures)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => path.join(fixtures, f))
    : [];
  const prog = program(extraRoots);
  const checker = prog.getTypeChecker();
  const found: HandNumber[] = [];
  const seen = new Set<string>();
  const inFixtures = (name: string): boolean => fixtures !== undefined && name.startsWith(fixtures + path.sep);

  const numberish = (node: ts.Node): boolean => {
    const type = checker.getTypeAtLocation(node);
    const parts = type.isUnion() ? type.types : [type];
    return parts.some((p) => (p.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) !== 0);
  };
  const stringish = (node: ts.Node): boolean => {
    const type = checker.getTypeAtLocation(node);
    const parts = type.isUnion() ? type.types : [type];
    return parts.some((p) => (p.flags & ts.TypeFlags.StringLike) !== 0);
  };
  const ours = (sf: ts.SourceFile): boolean =>
    (sf.fileName.startsWith(RENDERER) || inFixtures(sf.fileName)) && !sf.isDeclarationFile && !FORMATTERS.includes(sf.fileName);

  const report = (node: ts.Node, why: string): void => {
    const sf = node.getSourceFile();
    const text = node
      .getText(sf)
      .replace(/__VLS_unwrap\((\w+), \{\} as import\('vue'\)\.Ref<unknown>\)/g, '$1')
      .replace(/__VLS_ctx\./g, '')
      .replace(/\s+/g, ' ')
      .slice(0, 90);
    const key = `${sf.fileName}:${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    // A template's code comes after the .vue file's own text: its line is not the file's.
    const line = sf.fileName.endsWith('.vue') ? 0 : sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    found.push({
      file: inFixtures(sf.fileName) ? path.basename(sf.fileName) : path.relative(ROOT, sf.fileName),
      line,
      what: `${why}: ${text}`,
    });
  };

  /** The declaration a call, a name or a member leads to, in the renderer's own code. */
  const declarationsOf = (node: ts.Node): ts.Node[] => {
    // A call leads to the function it runs (through vue-tsc's wrappers of a template's names).
    if (ts.isCallExpression(node)) {
      const decl = checker.getResolvedSignature(node)?.declaration;
      if (decl && !ts.isJSDocSignature(decl) && ours(decl.getSourceFile())) return [decl];
    }
    let symbol = checker.getSymbolAtLocation(ts.isCallExpression(node) ? node.expression : node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const out: ts.Node[] = [];
    for (const decl of symbol?.declarations ?? []) {
      if (!ours(decl.getSourceFile())) continue;
      if (ts.isShorthandPropertyAssignment(decl)) {
        const value = checker.getShorthandAssignmentValueSymbol(decl);
        out.push(...(value?.declarations ?? []).filter((d) => ours(d.getSourceFile())));
      } else out.push(decl);
    }
    return out;
  };
  /** What a declaration gives to whoever uses it: a function's returned values, a constant's or a computed's value. */
  const givenBy = (node: ts.Node | undefined): ts.Node[] => {
    if (!node) return [];
    if (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node)) return givenBy(node.initializer);
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) {
      const body = node.body;
      if (!body) return [];
      if (!ts.isBlock(body)) return [body];
      const returned: ts.Node[] = [];
      const collect = (n: ts.Node): void => {
        if (ts.isFunctionLike(n)) return;
        if (ts.isReturnStatement(n) && n.expression) returned.push(n.expression);
        ts.forEachChild(n, collect);
      };
      ts.forEachChild(body, collect);
      return returned;
    }
    // computed(() => …), ref(…): what they hold.
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ['computed', 'ref', 'shallowRef'].includes(node.expression.text)) {
      const arg = node.arguments[0];
      return arg && (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) ? givenBy(arg) : arg ? [arg] : [];
    }
    return ts.isExpression(node) ? [node] : [];
  };

  const isT = (call: ts.CallExpression): boolean => {
    const decl = checker.getResolvedSignature(call)?.declaration;
    return decl !== undefined && FORMATTERS.includes(decl.getSourceFile().fileName);
  };

  /** Searches `node` (something shown) for a number made text by hand, following what it uses. */
  const search = (node: ts.Node, depth: number, visited: Set<ts.Node>): void => {
    if (visited.has(node)) return;
    visited.add(node);
    const walk = (n: ts.Node): void => {
      if (ts.isCallExpression(n)) {
        const callee = n.expression;
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
        if (name === 'String' && n.arguments[0] && numberish(n.arguments[0])) report(n, 'String() of a number');
        if (
          ts.isPropertyAccessExpression(callee) &&
          ['toString', 'toFixed', 'toPrecision', 'toExponential'].includes(name) &&
          numberish(callee.expression)
        ) {
          if (!(name === 'toString' && n.arguments.length > 0)) report(n, `${name}() of a number`);
        }
        // t() formats the numbers it is given: inside it, only its own arguments are searched.
        if (isT(n)) {
          n.arguments.forEach(walk);
          return;
        }
      }
      if (ts.isTemplateExpression(n))
        for (const span of n.templateSpans) if (numberish(span.expression)) report(span.expression, 'a number in a template string');
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        if ((stringish(n.left) && numberish(n.right)) || (numberish(n.left) && stringish(n.right))) report(n, 'a number added to a string');
      }
      // Text it takes from the renderer's functions, computed values and constants, a few steps deep.
      if (depth < FOLLOW_DEPTH && (ts.isCallExpression(n) || ts.isIdentifier(n) || ts.isPropertyAccessExpression(n)) && stringish(n)) {
        for (const decl of declarationsOf(n)) for (const given of givenBy(decl)) search(given, depth + 1, visited);
      }
      ts.forEachChild(n, walk);
    };
    walk(node);
  };

  /** A shown value: a bare number there is one shown as the program wrote it. */
  const shown = (expr: ts.Expression): void => {
    if (numberish(expr)) report(expr, 'a number shown as it is');
    search(expr, 0, new Set());
  };

  for (const sf of prog.getSourceFiles()) {
    if (!ours(sf)) continue;
    const vue = sf.fileName.endsWith('.vue');
    const visit = (node: ts.Node, inTemplate: boolean): void => {
      if (vue && ts.isVariableDeclaration(node) && node.name.getText(sf) === '__VLS_template') inTemplate = true;
      if (inTemplate) {
        // `{{ expr }}` becomes `( expr );`: the mustache's own spaces tell it from a v-model's `(expr);`
        // (Prettier writes every mustache with them).
        if (ts.isExpressionStatement(node) && ts.isParenthesizedExpression(node.expression) && /^\(\s/.test(node.getText(sf))) {
          shown(node.expression.expression);
        }
        if (ts.isPropertyAssignment(node) && SHOWN_ATTRIBUTES.has(node.name.getText(sf).replace(/^['"]|['"]$/g, '')))
          shown(node.initializer);
      }
      if (ts.isCallExpression(node)) {
        const decl = checker.getResolvedSignature(node)?.declaration;
        const where = decl?.getSourceFile().fileName ?? '';
        const fn = decl && 'name' in decl && decl.name ? (decl.name as ts.Node).getText(decl.getSourceFile()) : '';
        if (FORMATTERS.includes(where) && fn === 't') {
          const params = node.arguments[1];
          if (params && ts.isObjectLiteralExpression(params)) {
            for (const p of params.properties) if (ts.isPropertyAssignment(p)) search(p.initializer, 0, new Set());
          }
        }
        // A notice's text and a confirmation's words.
        if (where.endsWith(path.join('stores', 'notice.store.ts')) && fn === 'show' && node.arguments[1]) shown(node.arguments[1]);
        if (where.endsWith(path.join('stores', 'dialog.store.ts')) && fn === 'confirm' && node.arguments[0])
          search(node.arguments[0], 0, new Set());
      }
      ts.forEachChild(node, (child) => visit(child, inTemplate));
    };
    visit(sf, false);
  }
  return found;
}
