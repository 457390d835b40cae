// Page objects of issue 11: /additional-documents (a card per document type the package asks for,
// each with its picker and the files sent), /fillable-pdf-form (the forms, and one open in the
// editor beside its preview), and how a fresh applicant gets there: invited with `portal invite`,
// through the setup wizard, onto the hub.
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { portalCli } from '../fixtures';
import { inviteSetUpThroughApi } from './api-setup';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const applicant = { firstName: 'Jordan', lastName: 'Reyes', lastFour: '6789' };
const password = 'correct horse battery staple';

/** A fresh applicant invited and set up through the API onto /profile (inviteSetUpThroughApi); their subject id. */
export function newApplicantThroughSetup(page: Page, email: string): Promise<{ subjectId: number }> {
  return inviteSetUpThroughApi(page, email, applicant, password);
}

/** `portal report upload --data DIR --subject ID --kind KIND FILE`, as an operator runs it; its output. */
export function attachReport(subjectId: number, kind: 'report' | 'drug-report' | 'ecoc-form', file: string): string {
  return portalCli('report upload', '--subject', String(subjectId), '--kind', kind, file);
}

/** The bytes of a download the page started. */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const failure = await download.failure();
  if (failure) throw new Error(`download of ${download.suggestedFilename()} failed: ${failure}`);
  return readFile(await download.path());
}

/** The data pages' menu entry of a checklist page, with the state it says in words. */
export function navEntry(page: Page, title: string, state: 'done' | 'to do' | 'optional') {
  return page
    .getByRole('navigation', { name: 'Your profile' })
    .getByRole('link', { name: new RegExp(`^${escape(title)} ${state}$`) });
}

/** /additional-documents "Additional Documents". */
export class DocumentsPage {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Additional Documents' });
  }

  async goto() {
    await this.page.goto('/additional-documents');
    await expect(this.heading).toBeVisible();
  }

  /** One document type's card ("Driver's license or state ID"): a region named by its title. */
  card(title: string) {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  /** The card's picker: the group "Add files: {title}". */
  picker(title: string) {
    return this.page.getByRole('group', { name: `Add files: ${title}`, exact: true });
  }

  chooseButton(title: string) {
    return this.picker(title).getByRole('button', { name: 'Choose files' });
  }

  dropZone(title: string) {
    return this.picker(title).getByTestId('upload-drop-zone');
  }

  /**
   * Picks files with the browser's file chooser, as someone clicking "Choose files" does: given as
   * bytes, or as paths (a large file: the browser reads it from disk instead of being sent it).
   */
  async chooseFiles(title: string, files: { name: string; mimeType: string; buffer: Buffer }[] | string[]) {
    const chooser = this.page.waitForEvent('filechooser');
    await this.chooseButton(title).click();
    await (await chooser).setFiles(files);
  }

  /** Drops a file on the card's drop zone: a drag from the desktop carries a DataTransfer with the file. */
  async dropFile(title: string, file: { name: string; mimeType: string; buffer: Buffer }) {
    const dataTransfer = await this.page.evaluateHandle(
      ({ bytes, name, mimeType }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], name, { type: mimeType }));
        return transfer;
      },
      { bytes: [...file.buffer], name: file.name, mimeType: file.mimeType },
    );
    const zone = this.dropZone(title);
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await zone.dispatchEvent('dragover', { dataTransfer });
    await expect(zone).toHaveAttribute('data-dragging', 'true');
    await zone.dispatchEvent('drop', { dataTransfer });
  }

  /** A sent file's Download button (its name says which file). */
  download(name: string) {
    return this.page.getByRole('button', { name: `Download ${name}`, exact: true });
  }

  delete(name: string) {
    return this.page.getByRole('button', { name: `Delete ${name}`, exact: true });
  }

  /** Deletes a sent file through its confirm dialog. */
  async deleteFile(name: string) {
    await this.delete(name).click();
    const dialog = this.page.getByRole('dialog', { name: `Delete ${name}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete file', exact: true }).click();
    await expect(dialog).toHaveCount(0);
  }
}

/** /fillable-pdf-form "Forms": the list of forms, and one open in the editor. */
export class FormsPage {
  readonly heading: Locator;
  readonly preview: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Forms' });
    this.preview = page.getByRole('region', { name: 'Preview' });
  }

  async goto() {
    await this.page.goto('/fillable-pdf-form');
    await expect(this.heading).toBeVisible();
  }

  /** A form's card in the list. */
  card(title: string) {
    return this.page.getByRole('article', { name: title, exact: true });
  }

  async open(title: string) {
    await this.page.getByRole('button', { name: new RegExp(`^Fill in (again: )?${escape(title)}$`) }).click();
    await expect(this.editor(title)).toBeVisible();
  }

  /** The open form: a form named after the PDF form's title. */
  editor(title: string) {
    return this.page.getByRole('form', { name: title, exact: true });
  }

  /** The first page of the preview, drawn by pdf.js on a canvas. */
  previewPage() {
    return this.preview.getByRole('img', { name: /^Page 1 of \d+ of the filled form$/ });
  }

  async submit(title: string) {
    await this.editor(title).getByRole('button', { name: 'Submit form' }).click();
  }

  /** What the list says after a submit, with the way on. */
  sent() {
    return this.page.getByRole('status').filter({ hasText: 'Form submitted' });
  }

  /** The preview opened with "View full screen". */
  fullScreen(title: string) {
    return this.page.getByRole('dialog', { name: `Preview: ${title}` });
  }

  async openFullScreen(title: string) {
    await this.preview.getByRole('button', { name: 'View full screen' }).click();
    await expect(this.fullScreen(title)).toBeVisible();
  }

  downloadSubmitted(title: string) {
    return this.page.getByRole('button', { name: `Download the submitted ${title}`, exact: true });
  }
}

/** True when the canvas has a pixel that is not white (pdf.js drew something on it). */
export async function canvasHasInk(canvas: Locator): Promise<boolean> {
  return canvas.evaluate((element) => {
    const c = element as HTMLCanvasElement;
    const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
    if (!data) return false;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 0 && (data[i] < 200 || data[i + 1] < 200 || data[i + 2] < 200)) return true;
    }
    return false;
  });
}

/** What the canvas shows, as a data URL: two drawings of different answers differ. */
export function canvasPicture(canvas: Locator): Promise<string> {
  return canvas.evaluate((element) => (element as HTMLCanvasElement).toDataURL());
}
