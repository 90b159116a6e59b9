/**
 * The admin panel with long forms, end to end in Debian's Chromium (docs/performance.md "Admin
 * panel at scale"; the timings are bench/admin-scale.ts's): an article whose zone holds 40 entries
 * takes keystrokes in its 40th entry, then in its first, each in the right field; past the first
 * (which makes the form dirty) a keystroke renders nothing, the page itself pinned (React's
 * commits read through the devtools hook React calls in production builds too: no timing); an
 * entry moved keeps its values; the save writes exactly what was typed. And the first screen
 * loads no script of the editor (the edit view's chunks come with the first edit view), nor of
 * its dialogs and dropdowns (the filter builder's comes with its first press). SQLite only, as
 * the other browser tests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, ensureAdminBuild, launchChromium, logInToPanel, newPanelPage } from '../helpers/browser.js';
import type { HttpClient } from '../helpers/http.js';
import { registerFirstAdmin } from '../helpers/admins.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const ARTICLES = '/content-manager/collection-types/api::article.article';
const ZONE = 40;

/**
 * Installed before the app loads: at each React commit, the `<input>`s and `<textarea>`s whose
 * props are new (they rendered), by element; `window.renderedInputs()` answers the values of those
 * since the last call, `window.renderedPages()` how many times the edit view's page rendered (its
 * element marked `data-edit-view`). A host element's props object is new exactly when its component
 * rendered it again. A string: the test runner's compiled functions call helpers the page does not have.
 */
const WATCH_INPUT_RENDERS = `{
  const seen = new WeakMap();
  let rendered = new Set();
  let pages = 0;
  const walk = (first) => {
    const stack = first ? [first] : [];
    while (stack.length) {
      const fiber = stack.pop();
      const isPage = fiber.tag === 5 && fiber.memoizedProps?.['data-edit-view'] !== undefined;
      if (fiber.tag === 5 && (fiber.type === 'input' || fiber.type === 'textarea' || isPage)) {
        const element = fiber.stateNode;
        if (seen.has(element) && seen.get(element) !== fiber.memoizedProps) {
          if (isPage) pages += 1;
          else rendered.add(element);
        }
        seen.set(element, fiber.memoizedProps);
      }
      if (fiber.sibling) stack.push(fiber.sibling);
      if (fiber.child) stack.push(fiber.child);
    }
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => undefined,
    onScheduleFiberRoot: () => undefined,
    onCommitFiberUnmount: () => undefined,
    onPostCommitFiberRoot: () => undefined,
    onCommitFiberRoot: (id, root) => walk(root.current),
  };
  window.renderedInputs = () => {
    const answer = [...rendered].map((element) => element.value);
    rendered = new Set();
    return answer;
  };
  window.renderedPages = () => {
    const answer = pages;
    pages = 0;
    return answer;
  };
}`;

describe('admin panel: a 40-entry zone, and what the first screen loads [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let root: HttpClient;
  let documentId: string;
  const email = 'scale@example.com';
  const password = 'Scale-Passw0rd';
  const scripts: string[] = [];

  const rendered = () => page.evaluate(() => (window as unknown as { renderedInputs(): string[] }).renderedInputs());
  const renderedPages = () => page.evaluate(() => (window as unknown as { renderedPages(): number }).renderedPages());
  const entry = (n: number) => page.getByRole('group', { name: `blocks ${n}: Quote` });

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite');
    root = (await registerFirstAdmin(server, { email, password, firstname: 'Sam' })).client;
    const created = await root.post(`${ARTICLES}?locale=en`, {
      title: 'A long article',
      blocks: Array.from({ length: ZONE }, (_, i) => ({
        __component: 'shared.quote',
        title: `Quote ${i + 1}`,
        body: `Body ${i + 1}`,
      })),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    documentId = created.body.data.documentId;
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await page.addInitScript(WATCH_INPUT_RENDERS);
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname.split('/').pop()!);
    });
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("loads the list without the editor's or the dropdowns' scripts; using them brings them", async () => {
    scripts.length = 0;
    await page.goto(`${server.url}/admin/content/api::article.article`);
    await page.getByRole('table').getByRole('link', { name: 'A long article' }).waitFor();
    assert.ok(scripts.length > 0, 'the app loaded its scripts again');
    const editor = (names: string[]) =>
      names.filter((name) => /^(EditPage|BlocksEditor|BlocksField|ComponentField|FieldInput)-/.test(name));
    assert.deepEqual(editor(scripts), [], `the first screen loaded ${scripts.join(', ')}`);
    // Nor the code of its dialogs and dropdowns (Mantine's modal, popover, combobox): they load when first used.
    const later = (names: string[]) =>
      names.filter((name) => /^(Modal|modal|FilterButton|ColumnsPicker|RowMenu|Combobox|Popover)-/.test(name));
    assert.deepEqual(later(scripts), [], `the first screen loaded ${scripts.join(', ')}`);
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('form', { name: 'Add a filter' }).waitFor();
    assert.ok(
      later(scripts).some((name) => name.startsWith('FilterButton-')),
      `the filter builder came with ${scripts.join(', ')}`,
    );
    await page.keyboard.press('Escape');
    await page.getByRole('form', { name: 'Add a filter' }).waitFor({ state: 'hidden' });
    await page.getByRole('table').getByRole('link', { name: 'A long article' }).click();
    await entry(ZONE).waitFor();
    assert.ok(
      editor(scripts).some((name) => name.startsWith('EditPage-')),
      `the edit view loaded ${scripts.join(', ')}`,
    );
  });

  it('types into the 40th entry and the first, rendering neither the page nor another input', async () => {
    const last = entry(ZONE).getByLabel('title');
    await last.click();
    await page.keyboard.press('End');
    await rendered();
    await renderedPages();
    // A field's first key makes it dirty: the page renders once (its header says so, Mantine's
    // dirty state is per field), with the input typed into.
    await page.keyboard.type('!');
    await page.getByText('unsaved changes').waitFor();
    assert.equal(await last.inputValue(), `Quote ${ZONE}!`);
    assert.deepEqual(await rendered(), [`Quote ${ZONE}!`]);
    assert.equal(await renderedPages(), 1);
    // The next keys render nothing: the page is pinned, the input keeps what is typed.
    await page.keyboard.type('ab');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    assert.equal(await last.inputValue(), `Quote ${ZONE}!`);
    assert.deepEqual(await rendered(), []);
    assert.equal(await renderedPages(), 0);
    // The first entry has not rendered since the form was filled: its input still writes the form's current values.
    const firstBody = entry(1).getByLabel('body');
    await firstBody.click();
    await page.keyboard.press('End');
    await rendered();
    await renderedPages();
    await page.keyboard.type('?');
    assert.equal(await firstBody.inputValue(), 'Body 1?');
    assert.deepEqual(await rendered(), ['Body 1?']);
    assert.equal(await renderedPages(), 1);
    await page.keyboard.type('cd');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    assert.equal(await firstBody.inputValue(), 'Body 1?');
    assert.deepEqual(await rendered(), []);
    assert.equal(await renderedPages(), 0);
    assert.equal(await last.inputValue(), `Quote ${ZONE}!`);
    for (const n of [2, 20, ZONE - 1]) assert.equal(await entry(n).getByLabel('title').inputValue(), `Quote ${n}`);
  });

  it('moves the 40th entry up with its values, and saves exactly what was typed', async () => {
    await page.getByRole('button', { name: `Move blocks ${ZONE}: Quote up` }).click();
    await page.waitForFunction(
      ([legend, value]) =>
        [...document.querySelectorAll('fieldset')].some(
          (set) => set.querySelector('legend')?.textContent === legend && set.querySelector('input')?.value === value,
        ),
      [`blocks ${ZONE - 1}: Quote`, `Quote ${ZONE}!`],
    );
    assert.equal(await entry(ZONE).getByLabel('title').inputValue(), `Quote ${ZONE - 1}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const stored = await server.api.get(`/api/articles/${documentId}?populate[blocks]=true&status=draft`);
    assert.equal(stored.status, 200);
    const titles = (stored.body.data.blocks as { title: string; body: string }[]).map((block) => [
      block.title,
      block.body,
    ]);
    const expected = Array.from({ length: ZONE }, (_, i) => [`Quote ${i + 1}`, `Body ${i + 1}`]);
    expected[0] = ['Quote 1', 'Body 1?'];
    expected[ZONE - 2] = [`Quote ${ZONE}!`, `Body ${ZONE}`];
    expected[ZONE - 1] = [`Quote ${ZONE - 1}`, `Body ${ZONE - 1}`];
    assert.deepEqual(titles, expected);
  });

  it("puts each field's inputs in a form of their own, and Enter in one saves", async () => {
    // Chromium's autofill reads the whole form of the input typed into after each key
    // (components/FieldForm.tsx): no form holds more than one field's inputs, none is outside a form.
    const largest = await page.evaluate(() => {
      const inputs = [...document.querySelectorAll('[data-edit-view] input, [data-edit-view] textarea')].filter(
        (input) => !(input as HTMLInputElement).closest('[role=dialog]'),
      ) as (HTMLInputElement | HTMLTextAreaElement)[];
      const formless = inputs
        .filter((input) => !input.form)
        .map((input) => input.getAttribute('aria-label') ?? input.id);
      const sizes = inputs.map(
        (input) => [...(input.form?.elements ?? [])].filter((e) => e.matches('input, textarea, select')).length,
      );
      return { inputs: inputs.length, formless, largest: Math.max(...sizes) };
    });
    assert.ok(largest.inputs > 2 * ZONE, `${largest.inputs} inputs`);
    assert.deepEqual(largest.formless, []);
    assert.ok(largest.largest <= 2, `a form holds ${largest.largest} inputs`);
    // Enter in a field presses Save, as it did when the page was one form with Save its submit button.
    const stored = async () => {
      const answer = await server.api.get(`/api/articles/${documentId}?populate[blocks]=true&status=draft`);
      assert.equal(answer.status, 200);
      return (answer.body.data.blocks as { title: string }[]).map((block) => block.title);
    };
    const second = entry(2).getByLabel('title');
    await second.click();
    await page.keyboard.press('End');
    await page.keyboard.type('+');
    await page.getByText('unsaved changes').waitFor();
    await page.keyboard.press('Enter');
    await page.getByText('unsaved changes').waitFor({ state: 'hidden' });
    assert.equal((await stored())[1], 'Quote 2+');
    // The save mounts the inputs anew with the values stored (their keys change): the field is clicked again.
    await second.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.getByText('unsaved changes').waitFor();
    await page.keyboard.press('Enter');
    await page.getByText('unsaved changes').waitFor({ state: 'hidden' });
    assert.equal((await stored())[1], 'Quote 2');
  });

  it('leaves the entries out of sight unrendered until they near the viewport', async () => {
    // content-visibility: auto (components/ComponentField.tsx): a keystroke's frame walks only the entries in sight.
    const rendered = (legend: string, shown: boolean) =>
      page.waitForFunction(
        ([name, expected]) =>
          [...document.querySelectorAll('fieldset')]
            .find((set) => set.querySelector('legend')?.textContent === name)
            ?.querySelector('input')
            ?.checkVisibility({ contentVisibilityAuto: true }) === expected,
        [legend, shown] as const,
      );
    await page.evaluate(() => window.scrollTo(0, 0));
    await rendered(`blocks ${ZONE}: Quote`, false);
    await rendered('blocks 1: Quote', true);
    await entry(ZONE).getByLabel('title').scrollIntoViewIfNeeded();
    await rendered(`blocks ${ZONE}: Quote`, true);
    await rendered('blocks 1: Quote', false);
  });
});
