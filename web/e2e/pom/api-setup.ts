// A fresh applicant set up through the API, for the specs that need one past setup but are not about
// the setup wizard (setup.spec.ts and wizard.spec.ts drive the wizard itself, as do the journeys about
// the legal steps, the keyboard and Spanish): the same steps the wizard takes, as its own calls send them, in
// a fraction of the time, then a login through the real login page.
import { deflateSync } from 'node:zlib';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { portal } from '../fixtures';
import { LoginPage } from './login-page';
import { inviteToSanFrancisco, type Applicant } from './setup-wizard';

type Json = Record<string, unknown>;

/** The ack flag of each notice of the rights step (web/src/features/legal/lib/legal-steps.ts). */
const rightsFlags: Record<string, string> = {
  rights_fed: 'ackFed',
  rights_nj: 'ackNj',
  rights_wa: 'ackWa',
  rights_sf: 'ackSf',
  rights_ny23a: 'ackNy',
  rights_ca_credit: 'ackCaCredit',
  rights_vt_credit: 'ackVtCredit',
  rights_md_credit: 'ackMdCredit',
};

/** A drawn signature as the pad sends it: an 8-bit grey PNG, 300 x 90, with a stroke across. */
export function signaturePng(): string {
  const width = 300;
  const height = 90;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width + 1, 255);
    row[0] = 0; // filter: none
    for (let x = 20; x < width - 20; x++) {
      const wave = Math.round(45 + 20 * Math.sin(x / 15));
      if (Math.abs(y - wave) <= 2) row[x + 1] = 0;
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 0; // greyscale
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export class Client {
  token = '';
  constructor(readonly request: APIRequestContext) {}

  async call(method: string, path: string, data?: unknown): Promise<{ status: number; body: Json }> {
    const response = await this.request.fetch(`${portal.baseURL}${path}`, {
      method,
      headers: this.token ? { Authorization: `Bearer ${this.token}` } : {},
      data,
    });
    const text = await response.text();
    return { status: response.status(), body: (text ? JSON.parse(text) : {}) as Json };
  }

  async ok(method: string, path: string, data?: unknown, want = [200, 201]): Promise<Json> {
    const { status, body } = await this.call(method, path, data);
    expect(want, `${method} ${path} answered ${status}: ${JSON.stringify(body)}`).toContain(status);
    return body;
  }
}

type Document = { id: number; title: string; type: { documentType: string }; signature?: unknown };

/** The personal information step's save (PUT /api/v2/user) as the wizard sends it: a Texas driver's license, no middle name. */
export function personalInformation(email: string, applicant: Applicant, drugZip = '') {
  return {
    firstName: applicant.firstName,
    noMiddleName: true,
    middleName: '',
    lastName: applicant.lastName,
    mothersMaidenName: '',
    ssn: `12345${applicant.lastFour}`,
    confirmSSN: `12345${applicant.lastFour}`,
    noSSN: false,
    dob: '1990-04-12',
    confirmDOB: '1990-04-12',
    gender: '',
    nameSuffix: '',
    daytimeDialCode: '1',
    daytimePhoneNumber: '202 456 1111',
    eveningDialCode: '',
    eveningPhoneNumber: '',
    identificationCountry: '',
    countryIdentificationNumber: '',
    driversLicenseNumber: 'D7654321',
    noDriversLicenseNumber: false,
    driversLicenseState: 'US-TX',
    drugZip,
    cdlRequired: false,
    licenses: [],
    primaryNotificationMethod: { type: 'email', email, text: '' },
  };
}

/**
 * `portal invite` (working in San Francisco, inviteToSanFrancisco), then through the API what the
 * setup wizard does: the password, residency in Texas, every applicable legal step signed (each
 * document's hash as served, the authorization last), the personal information, setup-complete;
 * then a login on /login onto the hub. Returns the subject id.
 */
export async function inviteSetUpThroughApi(
  page: Page,
  email: string,
  applicant: Applicant,
  password: string,
  { drugZip = '' }: { drugZip?: string } = {},
): Promise<{ subjectId: number }> {
  const { subjectId, link } = inviteToSanFrancisco(email, applicant);
  const token = new URL(link).searchParams.get('token') as string;

  const api = new Client(page.request);
  const invited = await api.ok('GET', `/api/user?token=${encodeURIComponent(token)}`);
  api.token = invited.access_token as string;
  await api.ok('PATCH', '/api/v2/user', { password });
  api.token = '';
  const login = await api.ok('POST', '/oauth/access_token', {
    grant_type: 'password',
    username: email,
    password,
    client_id: 'portal-spa',
    client_secret: 'portal-spa-secret',
    scope: 'default',
  });
  api.token = login.access_token as string;
  await api.ok('POST', '/api/v2/user/data', { location: { residency: { nonUs: false, state: 'US-TX', county: 0 } } });
  await signEveryStep(api, applicant);
  await api.ok('PUT', '/api/v2/user', personalInformation(email, applicant, drugZip));
  await api.ok('POST', '/api/v2/user/subject/status', { statusId: 1 });

  const loginPage = new LoginPage(page);
  await loginPage.goto();
  await loginPage.logIn(email, password);
  await expect(page).toHaveURL(/\/profile$/);
  return { subjectId };
}

/**
 * Signs every legal step the applicant's locations make applicable: the server says which do not
 * apply (409), the rights notices are signed together, the authorization last.
 */
export async function signEveryStep(api: Client, applicant: Applicant) {
  const documents = (await api.ok('GET', '/api/v2/user/document')) as unknown as Document[];
  const hashes: Record<string, string> = {};
  for (const d of documents) {
    const served = await api.ok('GET', `/api/v2/document/${d.id}`);
    hashes[String(d.id)] = served.contentSha256 as string;
  }
  const fields: Json = {
    signature: signaturePng(),
    firstName: applicant.firstName,
    lastName: applicant.lastName,
    ackConsent: true,
    ackNotices: true,
    ackReceipt: true,
    ackReceiptYourRights: true,
    authConsent: true,
    lastFourSSN: applicant.lastFour,
    noSSN: false,
  };
  const notices = documents.filter((d) => d.type.documentType in rightsFlags);
  const rightsAcks = Object.fromEntries(notices.map((d) => [rightsFlags[d.type.documentType], true]));
  const ordered = [
    ...documents.filter((d) => d.type.documentType !== 'authorization_for_background'),
    ...documents.filter((d) => d.type.documentType === 'authorization_for_background'),
  ];
  let signedRights = false;
  for (const d of ordered) {
    const isNotice = d.type.documentType in rightsFlags;
    if (isNotice && signedRights) continue;
    const contentSha256 = isNotice
      ? Object.fromEntries(notices.map((n) => [String(n.id), hashes[String(n.id)]]))
      : { [String(d.id)]: hashes[String(d.id)] };
    const { status, body } = await api.call('POST', `/api/v2/user/document/${d.id}/signature`, {
      ...fields,
      ...(isNotice ? rightsAcks : {}),
      contentSha256,
    });
    if (status === 409 && /does not apply/.test(String(body.errorMessage))) continue;
    expect(status, `signing ${d.title}: ${JSON.stringify(body)}`).toBe(201);
    if (isNotice) signedRights = true;
  }
}
