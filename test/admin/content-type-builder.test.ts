/**
 * The Content-Type Builder's screens end to end, in Debian's Chromium (docs/content-type-builder.md
 * "The screens"): under `vellum develop` on a copy of the blog, a component, a collection type with
 * every attribute kind, a component made with a field, a dynamic zone and relations of each kind,
 * and a single type, all saved as one batch; the content API serves the new types at once and the
 * content manager lists them without a reload; the files on disk equal those a second copy of the
 * blog gets from the same batch sent to the API (the batch the screen sent, captured from the
 * browser). Then edits and deletions (each confirmation naming what goes), a refusal shown beside
 * Save, and the read-only builder outside develop.
 *
 * SQLite only: a browser run per dialect would add a minute each, and the API behind these screens
 * (and its files, compared with Strapi's) is covered on all three by test/content-type-builder/.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { startDevelop, type DevelopServer } from '../../src/app/develop.js';
import {
  browserMissing,
  ensureAdminBuild,
  launchChromium,
  logInToPanel,
  newPanelPage,
  screenshotsDir,
} from '../helpers/browser.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { HttpClient } from '../helpers/http.js';
import { projectFiles } from '../helpers/projects.js';
import { BLOG, DIALECTS, fullAccessHeaders, startServer, type TestServer } from '../helpers/server.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const EMAIL = 'builder-screens@example.com';
const PASSWORD = 'Builder-Screens-1';

/** A copy of the blog under `vellum develop` on a fresh SQLite database, with an administrator. */
class DevelopProject {
  dir = mkdtempSync(join(tmpdir(), 'vellum-ctb-screens-'));
  database!: TestDatabase;
  dev!: DevelopServer;
  admin!: HttpClient;

  async start(): Promise<this> {
    cpSync(BLOG, this.dir, { recursive: true, filter: (source) => !source.includes('.tmp') });
    this.database = await createTestDatabase('sqlite');
    this.dev = await startDevelop(this.dir, {
      env: { NODE_ENV: 'test' },
      overrides: { server: { host: '127.0.0.1', port: 0 }, database: this.database.config },
    });
    await this.dev.current.auth.admins.create(EMAIL, PASSWORD);
    const login = await new HttpClient(this.dev.url).post('/admin/login', { email: EMAIL, password: PASSWORD });
    assert.equal(login.status, 200, login.text);
    this.admin = new HttpClient(this.dev.url, { authorization: `Bearer ${login.body.data.token}` });
    return this;
  }

  /** Sends a batch as the screens do and waits (polling) until the next version serves. */
  async apply(batch: unknown): Promise<void> {
    const answer = await this.admin.post('/content-type-builder/update-schema', batch);
    assert.deepEqual([answer.status, answer.body], [200, {}], `${this.dir}: ${answer.text}`);
    for (;;) {
      const status = await this.admin.get('/content-type-builder/update-schema-status');
      if (status.status === 200 && status.body.data.isUpdating === false) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {
    await this.dev?.close();
    await this.database?.drop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('the Content-Type Builder screens under vellum develop [sqlite]', { skip }, () => {
  let project: DevelopProject;
  /** Receives each batch the screens send, through the API: its files must come out the same. */
  let twin: DevelopProject;
  let browser: Browser;
  let page: Page;
  let api: HttpClient;
  /** The non-empty batches the browser sent to `POST /content-type-builder/update-schema`. */
  const sent: { data: { components: unknown[]; contentTypes: unknown[] } }[] = [];

  const shot = (name: string) => page.screenshot({ path: join(screenshotsDir(), `builder-${name}.png`) });
  const dialog = () => page.getByRole('dialog');
  /** An input of the open dialog by its label (a required one's ends with " *"). */
  const field = (label: string): Locator =>
    dialog().getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));
  const notification = (text: string | RegExp) =>
    page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
  const builderLink = (name: string) =>
    // A model with unsaved changes is named with its badge ("Station New").
    page.locator('nav[aria-label^="Builder:"]').getByRole('link', { name: new RegExp(`^${name}( New| Changed)?$`) });

  const openModel = async (name: string) => {
    await builderLink(name).click();
    await page.getByRole('heading', { name, level: 2 }).waitFor();
  };
  /** In the "add a field" dialog: picks a kind, fills its form with `fill`, then adds another or finishes. */
  const addField = async (kind: string, fill: () => Promise<void>, then: 'another' | 'finish' = 'another') => {
    await dialog().getByRole('button', { name: kind, exact: true }).click();
    await fill();
    if (then === 'another') {
      await dialog().getByRole('button', { name: 'Add another field' }).click();
      await dialog().getByRole('button', { name: 'Text', exact: true }).waitFor();
    } else {
      await dialog().getByRole('button', { name: 'Finish' }).click();
      await dialog().waitFor({ state: 'hidden' });
    }
  };
  const relation = async (name: string, target: string, kind: RegExp, otherSide?: string) => {
    await field('Related content-type').selectOption({ label: target });
    await dialog().getByRole('radio', { name: kind }).check();
    await field('Name').fill(name);
    if (otherSide !== undefined) await field(`Name on ${target}`).fill(otherSide);
  };
  /**
   * Save, then the notification that the API serves the change; the batch the browser sent goes to
   * the twin at once (so that it follows the project whatever a test does next).
   */
  const save = async ({ seeApplying = false } = {}) => {
    const count = sent.length;
    if (seeApplying)
      // The first status request waits until the screen says the change is being applied.
      await page.route(
        '**/content-type-builder/update-schema-status',
        async (route) => {
          await page.getByRole('status', { name: 'Schema status' }).getByText('Applying the changes').waitFor();
          await route.continue();
        },
        { times: 1 },
      );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notification('Saved: the API serves the new schema').waitFor();
    assert.equal(sent.length, count + 1, 'one Save sends one batch');
    const batch = sent.at(-1)!;
    await twin.apply(batch);
    return batch;
  };

  before(async () => {
    ensureAdminBuild();
    [project, twin] = await Promise.all([new DevelopProject().start(), new DevelopProject().start()]);
    api = new HttpClient(project.dev.url, await fullAccessHeaders(project.dev.current));
    browser = await launchChromium();
    page = await newPanelPage(browser);
    // A test that stops midway leaves a draft: the next one's page load leaves it.
    page.on('dialog', (prompt) => void prompt.accept());
    page.on('request', (request) => {
      if (request.method() !== 'POST' || !request.url().endsWith('/content-type-builder/update-schema')) return;
      const body = request.postDataJSON() as (typeof sent)[number];
      // The screens' probe of whether this server takes changes: an empty batch.
      if (body.data.components.length + body.data.contentTypes.length > 0) sent.push(body);
    });
    await logInToPanel(page, project.dev.url, EMAIL, PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await Promise.all([project?.close(), twin?.close()]);
  });

  it('creates a component, a collection type with every attribute kind, a zone, relations of each kind and a single type, in one batch the API serves at once', async () => {
    await page.goto(`${project.dev.url}/admin`);
    await page.getByRole('link', { name: 'Content-Type Builder' }).click();
    await page.getByRole('heading', { name: 'Content-Type Builder', level: 1 }).waitFor();
    await page.getByText('Pick a content-type or a component').waitFor();

    // A component: Tool, with a text and a one-way relation (a component's relations are one-sided).
    await page.getByRole('button', { name: 'Create a component' }).click();
    await field('Display name').fill('Tool');
    await field('Category').fill('kitchen');
    await field('Icon').fill('hammer');
    await field('UID').waitFor();
    assert.equal(await field('UID').inputValue(), 'kitchen.tool');
    await dialog().getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Tool', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Add a field' }).click();
    assert.equal(await dialog().getByRole('button', { name: 'UID', exact: true }).count(), 0, 'no uid in a component');
    await addField('Text', async () => {
      await field('Name').fill('label');
      await field('Maximum length').fill('40');
    });
    await addField(
      'Relation',
      async () => {
        assert.deepEqual(
          await dialog()
            .getByRole('radio')
            .evaluateAll((radios) => radios.map((radio) => radio.getAttribute('value'))),
          ['oneWay', 'manyWay'],
        );
        await relation('maker', 'Author', /^One way/);
      },
      'finish',
    );

    // A collection type: its API names follow the display name.
    await page.getByRole('button', { name: 'Create a collection type' }).click();
    await field('Display name').fill('Dish');
    assert.equal(await field('API ID (singular)').inputValue(), 'dish');
    assert.equal(await field('API ID (plural)').inputValue(), 'dishes');
    await field('Description').fill('Something to eat');
    assert.equal(await field('Draft and publish').isChecked(), true);
    await field('Localized').check();
    await dialog().getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Dish', level: 2 }).waitFor();
    assert.match(page.url(), /\/admin\/content-type-builder\/content-types\/api::dish\.dish$/);

    await page.getByRole('button', { name: 'Add a field' }).click();
    await addField('Text', async () => {
      await field('Name').fill('title');
      await field('Required field').check();
      await field('Unique field').check();
      await field('Minimum length').fill('2');
      assert.equal(await field('Localized field').isChecked(), true, 'a new field of a localized type is localized');
    });
    await addField('UID', async () => {
      await field('Name').fill('slug');
      await field('Attached field').selectOption('title');
    });
    await addField('Text', async () => {
      await field('Name').fill('summary');
      await dialog().getByRole('radio', { name: 'Long text' }).check();
      await field('Default value').fill('none');
      await field('Localized field').uncheck();
    });
    await addField('Rich text (Markdown)', () => field('Name').fill('method'));
    await addField('Rich text (Blocks)', () => field('Name').fill('story'));
    await addField('JSON', () => field('Name').fill('facts'));
    await addField('Enumeration', async () => {
      await field('Name').fill('course');
      await field('Values (one line per value)').fill('starter\nmain\ndessert');
      await field('Default value').selectOption('main');
    });
    await addField('Password', async () => {
      await field('Name').fill('secret');
      await field('Private field').check();
    });
    await addField('Email', () => field('Name').fill('contact'));
    await addField('Number', async () => {
      await field('Name').fill('servings');
      await field('Minimum value').fill('1');
      await field('Maximum value').fill('20');
    });
    for (const [name, format] of [
      ['calories', 'biginteger'],
      ['rating', 'float'],
      ['price', 'decimal'],
    ])
      await addField('Number', async () => {
        await field('Name').fill(name!);
        await field('Number format').selectOption(format!);
      });
    for (const [name, type] of [
      ['servedOn', 'date'],
      ['servedAt', 'time'],
      ['cookedAt', 'datetime'],
    ])
      await addField('Date', async () => {
        await field('Name').fill(name!);
        await field('Date type').selectOption(type!);
      });
    await addField('Boolean', async () => {
      await field('Name').fill('vegan');
      await field('Default value').selectOption('false');
    });
    await addField('Media', async () => {
      await field('Name').fill('photo');
      await dialog().getByRole('radio', { name: 'Single media' }).check();
      for (const type of [/^Videos/, /^Audios/, /^Files/])
        await dialog().getByRole('checkbox', { name: type }).uncheck();
    });
    await addField('Media', () => field('Name').fill('photos'));
    // A component made with its field, in the same batch.
    await addField('Component', async () => {
      await field('Name').fill('station');
      await dialog().getByRole('radio', { name: 'Create a new component' }).check();
      await field('Component display name').fill('Station');
      await field('Component category').fill('kitchen');
      await field('Component category').press('Escape');
      await dialog().getByRole('radio', { name: 'Single component' }).check();
    });
    await addField('Dynamic zone', async () => {
      await field('Name').fill('sections');
      await dialog().getByRole('checkbox', { name: 'Quote (shared.quote)' }).check();
      await dialog().getByRole('checkbox', { name: 'Tool (kitchen.tool)' }).check();
    });
    // Relations of each kind: two-way ones name the other side.
    await addField('Relation', async () => {
      assert.deepEqual(
        await dialog()
          .getByRole('radio')
          .evaluateAll((radios) => radios.map((radio) => radio.getAttribute('value'))),
        ['oneWay', 'oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'manyWay'],
      );
      await field('Related content-type').selectOption({ label: 'Author' });
      await dialog()
        .getByRole('radio', { name: /^Many to one/ })
        .check();
      // Named as Strapi's screen names them, until edited.
      assert.equal(await field('Name').inputValue(), 'author');
      assert.equal(await field('Name on Author').inputValue(), 'dishes');
      await field('Name').fill('chef');
      await shot('relation');
    });
    await addField('Relation', () => relation('tags', 'Tag', /^Many to many/, 'dishes'));
    await addField('Relation', () => relation('category', 'Category', /^One to one/, 'signatureDish'));
    await addField('Relation', () => relation('articles', 'Article', /^One to many/, 'dish'));
    await addField('Relation', () => relation('pairing', 'Dish', /^One way/));
    await addField('Relation', () => relation('related', 'Tag', /^Many way/));
    await addField('Relation', () => relation('variants', 'Dish', /^Many to many/, 'variantOf'), 'finish');
    await shot('dish-draft');

    // The new component's own fields, one a component in it.
    await openModel('Station');
    await page.getByRole('button', { name: 'Add a field' }).click();
    await addField('Text', async () => {
      await field('Name').fill('name');
      await field('Required field').check();
    });
    await addField(
      'Component',
      async () => {
        await field('Name').fill('tools');
        await field('Component').selectOption({ label: 'Tool' });
        await field('Minimum number of entries').fill('1');
      },
      'finish',
    );

    // A single type (no draft and publish), with a one-way relation to the new type.
    await page.getByRole('button', { name: 'Create a single type' }).click();
    await field('Display name').fill('Menu');
    await field('Draft and publish').uncheck();
    await dialog().getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Menu', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Add a field' }).click();
    await addField('Text', () => field('Name').fill('headline'));
    await addField(
      'Relation',
      async () => {
        assert.deepEqual(
          await dialog()
            .getByRole('radio')
            .evaluateAll((radios) => radios.map((radio) => radio.getAttribute('value'))),
          ['oneWay', 'oneToOne', 'oneToMany', 'manyWay'],
          'a single type has no many-to-one or many-to-many',
        );
        await relation('special', 'Dish', /^One way/);
      },
      'finish',
    );
    await page.getByRole('status', { name: 'Schema status' }).getByText('Unsaved changes').waitFor();

    const batch = await save({ seeApplying: true });
    assert.deepEqual(batch.data.components.map((component) => (component as { uid: string }).uid).sort(), [
      'kitchen.station',
      'kitchen.tool',
    ]);
    await openModel('Dish');
    await shot('dish');

    // The content manager lists the new types without a reload.
    await page
      .getByRole('navigation', { name: 'Collection types', exact: true })
      .getByRole('link', { name: 'Dish' })
      .waitFor();
    await page
      .getByRole('navigation', { name: 'Single types', exact: true })
      .getByRole('link', { name: 'Menu' })
      .waitFor();

    // The content API serves them at once: a dish with its component, zone and relations.
    const author = await api.post('/api/authors', { data: { name: 'Chef' } });
    const tag = await api.post('/api/tags', { data: { name: 'Soup' } });
    const created = await api.post('/api/dishes', {
      data: {
        title: 'Soup',
        summary: 'Hot',
        method: '# Boil',
        story: [{ type: 'paragraph', children: [{ type: 'text', text: 'Once' }] }],
        facts: { origin: 'kitchen' },
        course: 'starter',
        secret: 'a-secret',
        contact: 'chef@example.com',
        servings: 4,
        calories: '120',
        rating: 4.5,
        price: 9.5,
        servedOn: '2025-01-31',
        servedAt: '12:30:00',
        cookedAt: '2025-01-31T11:00:00.000Z',
        vegan: true,
        station: { name: 'Stove', tools: [{ label: 'Pot' }] },
        sections: [
          { __component: 'kitchen.tool', label: 'Ladle' },
          { __component: 'shared.quote', title: 'Good' },
        ],
        chef: author.body.data.documentId,
        tags: [tag.body.data.documentId],
      },
    });
    assert.equal(created.status, 201, created.text);
    const read = await api.get(
      `/api/dishes/${created.body.data.documentId}?status=draft&populate[station][populate]=tools&populate[sections]=*&populate[chef]=true&populate[tags]=true`,
    );
    assert.equal(read.status, 200, read.text);
    const dish = read.body.data;
    assert.deepEqual(
      [dish.title, dish.slug, dish.course, dish.calories, dish.vegan, dish.secret],
      ['Soup', 'soup', 'starter', '120', true, undefined],
    );
    assert.equal(dish.station.tools[0].label, 'Pot');
    assert.deepEqual(
      dish.sections.map((section: { __component: string }) => section.__component),
      ['kitchen.tool', 'shared.quote'],
    );
    assert.equal(dish.chef.name, 'Chef');
    assert.equal(dish.tags[0].name, 'Soup');
    const chef = await api.get(`/api/authors/${author.body.data.documentId}?populate=dishes`);
    assert.equal(chef.body.data.dishes.length, 1, 'the other side is served on the existing type');
    assert.equal((await api.put('/api/menu', { data: { headline: 'Today' } })).status, 200);

    // The files: those the same batch wrote through the API.
    assert.deepEqual(projectFiles(project.dir), projectFiles(twin.dir));
    const written = JSON.parse(readFileSync(join(project.dir, 'src/api/dish/content-types/dish/schema.json'), 'utf8'));
    assert.deepEqual(Object.keys(written.attributes), [
      'title',
      'slug',
      'summary',
      'method',
      'story',
      'facts',
      'course',
      'secret',
      'contact',
      'servings',
      'calories',
      'rating',
      'price',
      'servedOn',
      'servedAt',
      'cookedAt',
      'vegan',
      'photo',
      'photos',
      'station',
      'sections',
      'chef',
      'tags',
      'category',
      'articles',
      'pairing',
      'related',
      'variantOf',
      'variants',
    ]);
  });

  it('edits and deletes a field, a component and a type, each confirmation naming what goes; the files follow the batch', async () => {
    // Its own types, made through the API on both copies.
    const setup = {
      data: {
        components: [
          {
            action: 'create',
            uid: 'pantry.jar',
            category: 'pantry',
            displayName: 'Jar',
            attributes: [{ action: 'create', name: 'label', properties: { type: 'string' } }],
          },
        ],
        contentTypes: [
          {
            action: 'create',
            uid: 'api::recipe.recipe',
            kind: 'collectionType',
            displayName: 'Recipe',
            singularName: 'recipe',
            pluralName: 'recipes',
            draftAndPublish: false,
            attributes: [
              { action: 'create', name: 'title', properties: { type: 'string' } },
              { action: 'create', name: 'method', properties: { type: 'richtext' } },
              {
                action: 'create',
                name: 'tags',
                properties: {
                  type: 'relation',
                  relation: 'manyToMany',
                  target: 'api::tag.tag',
                  targetAttribute: 'recipes',
                },
              },
              { action: 'create', name: 'jar', properties: { type: 'component', component: 'pantry.jar' } },
              {
                action: 'create',
                name: 'shelf',
                properties: { type: 'dynamiczone', components: ['pantry.jar', 'shared.quote'] },
              },
            ],
          },
          {
            action: 'create',
            uid: 'api::board.board',
            kind: 'singleType',
            displayName: 'Board',
            singularName: 'board',
            pluralName: 'boards',
            draftAndPublish: false,
            attributes: [{ action: 'create', name: 'headline', properties: { type: 'string' } }],
          },
        ],
      },
    };
    await Promise.all([project.apply(setup), twin.apply(setup)]);
    const recipe = await api.post('/api/recipes', { data: { title: 'Jam', method: 'Boil' } });
    assert.equal(recipe.status, 201, recipe.text);

    await page.goto(`${project.dev.url}/admin/content-type-builder`);
    await openModel('Recipe');
    await page.getByRole('button', { name: 'Edit title' }).click();
    await field('Maximum length').fill('80');
    await dialog().getByRole('button', { name: 'Finish' }).click();

    await page.getByRole('button', { name: 'Delete method' }).click();
    await dialog().getByText('Saving removes the field method from Recipe and the data in it from the API').waitFor();
    await dialog().getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('button', { name: 'Delete tags' }).click();
    await dialog().getByText('with the other side of the relation, recipes of Tag').waitFor();
    await dialog().getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('button', { name: 'Delete method' }).waitFor({ state: 'detached' });

    await openModel('Jar');
    await page.getByRole('button', { name: 'Delete component' }).click();
    const usages = dialog().getByRole('listitem');
    await usages.first().waitFor();
    assert.deepEqual((await usages.allTextContents()).sort(), ['Recipe: jar', 'Recipe: shelf (dynamic zone)']);
    await shot('delete-component');
    await dialog().getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Pick a content-type or a component').waitFor();
    assert.equal(await builderLink('Jar').count(), 0);

    await save();
    assert.deepEqual(projectFiles(project.dir), projectFiles(twin.dir));
    const schema = JSON.parse(
      readFileSync(join(project.dir, 'src/api/recipe/content-types/recipe/schema.json'), 'utf8'),
    );
    assert.equal(schema.attributes.title.maxLength, 80);
    assert.deepEqual(Object.keys(schema.attributes), ['title', 'shelf']);
    assert.deepEqual(schema.attributes.shelf.components, ['shared.quote']);
    assert.equal(existsSync(join(project.dir, 'src/components/pantry/jar.json')), false);
    const read = await api.get(`/api/recipes/${recipe.body.data.documentId}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(
      [read.body.data.title, read.body.data.method],
      ['Jam', undefined],
      'a deleted field is not served',
    );

    await openModel('Board');
    await page.getByRole('button', { name: 'Delete content-type' }).click();
    await dialog().getByText('Saving removes the content-type Board, its API (/api/board)').waitFor();
    await dialog().getByRole('button', { name: 'Yes, delete' }).click();
    const removal = await save();
    assert.deepEqual(removal.data.contentTypes, [{ action: 'delete', uid: 'api::board.board' }]);
    assert.deepEqual(projectFiles(project.dir), projectFiles(twin.dir));
    assert.equal((await api.get('/api/board')).status, 404);
    await page
      .getByRole('navigation', { name: 'Single types', exact: true })
      .getByRole('link', { name: 'Board' })
      .waitFor({ state: 'detached' });
  });

  it('warns before localization is turned off that the entries of other locales go (as Strapi asks)', async () => {
    await page.goto(`${project.dev.url}/admin/content-type-builder`);
    await openModel('Article');
    await page.getByRole('button', { name: 'Edit settings' }).click();
    const warning = dialog().getByText('Entries in other locales will be deleted');
    const localized = dialog().getByRole('checkbox', { name: /^Localized/ });
    assert.equal(await localized.isChecked(), true, 'the blog article is localized');
    assert.equal(await warning.count(), 0, 'no warning while it stays localized');
    await localized.uncheck();
    await warning.waitFor();
    await dialog().getByText('a document without one is deleted').waitFor();
    await localized.check();
    await warning.waitFor({ state: 'detached' });
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.equal(await builderLink('Article').getByText('Changed').count(), 0, 'nothing changed');
  });

  it("shows the API's refusal beside Save and keeps the draft; Discard goes back to the server's schema", async () => {
    await page.goto(`${project.dev.url}/admin/content-type-builder`);
    await page.getByRole('button', { name: 'Create a collection type' }).click();
    await field('Display name').fill('Clash');
    await dialog().getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Clash', level: 2 }).waitFor();
    // Meanwhile the same type arrives by another way (a script, another browser): on both copies.
    const clash = {
      data: {
        contentTypes: [
          {
            action: 'create',
            uid: 'api::clash.clash',
            kind: 'collectionType',
            displayName: 'Clash',
            singularName: 'clash',
            pluralName: 'clashes',
            draftAndPublish: false,
            attributes: [{ action: 'create', name: 'name', properties: { type: 'string' } }],
          },
        ],
      },
    };
    await Promise.all([project.apply(clash), twin.apply(clash)]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).getByText('contentType.alreadyExists').waitFor();
    await shot('refused');
    assert.ok(await page.getByRole('heading', { name: 'Clash', level: 2 }).isVisible(), 'the draft stays');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page
      .getByRole('status', { name: 'Schema status' })
      .getByText('Unsaved changes')
      .waitFor({ state: 'detached' });
    // The server's Clash, with its field.
    await page.getByRole('table', { name: 'Fields of Clash' }).getByText('name', { exact: true }).waitFor();
  });
});

describe('the Content-Type Builder screens outside vellum develop [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite');
    await server.vellum.auth.admins.create(EMAIL, PASSWORD);
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, EMAIL, PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the schema read-only and says to run vellum develop', async () => {
    await page.getByRole('link', { name: 'Content-Type Builder' }).click();
    await page.getByText('run vellum develop to change the schema').waitFor();
    await page.locator('nav[aria-label^="Builder:"]').getByRole('link', { name: 'Article', exact: true }).click();
    await page
      .getByRole('table', { name: 'Fields of Article' })
      .getByText('Relation, many to one: Author (its articles)')
      .waitFor();
    for (const name of ['Create a collection type', 'Create a component', 'Add a field', 'Edit title', 'Save'])
      assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, name);
  });
});
