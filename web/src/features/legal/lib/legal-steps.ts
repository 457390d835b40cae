// Which legal documents an applicant signs, and in which order (spec
// sections 5 and 9). The server runs the same rules (internal/portal/legal.go)
// and both are tested against internal/portal/testdata/legal-cases.json.
import '@/features/legal/lib/messages';
import { t, type MessageKey } from '@/lib/i18n';

export type Region = { state?: string; county?: number };

export type LegalDocumentType = {
  id: number;
  documentType: string;
  visibility: string; // all | non_us | regional
  regions: Region[] | null;
  code: string;
  editable: boolean;
};

export type Signature = {
  id: number;
  signatureData: string;
  signatureUserIp: string;
  signerName: string;
  createdAt: string;
  documentVersion: number;
  contentSha256: string;
  outcome: 'signed' | 'paper_forms';
  fields: Record<string, unknown>;
};

/**
 * A per-employer DOT release: the company's release document signed for one
 * DOT-regulated employer of the employment history (instance = the entry's id).
 */
export type DocumentInstance = {
  instance: string;
  employerName: string;
  signature: Signature | null;
};

export type LegalDocument = {
  id: number;
  title: string;
  version: number;
  type: LegalDocumentType;
  signature: Signature | null;
  /** The language of the title: the page's when the document has a text in it, else en-US. */
  language?: string;
  /** Only on the release document: its per-employer releases. */
  instances?: DocumentInstance[];
};

export type Place = { nonUs: boolean; state: string; county: number; signed?: boolean };
export type Location = { residency: Place; employment: Place };

export type LegalStep = {
  documentType: string;
  priority: number;
  documents: LegalDocument[];
  /** The acknowledgements of the merged rights step; empty elsewhere. */
  ackFlags: string[];
};

export const RIGHTS = 'rights';

/** A rights notice's name in the chosen language; undefined for no notice. */
export const noticeName = (notice: { nameKey: MessageKey } | undefined) => notice && t(notice.nameKey);

/**
 * The rights notices in the order the rights step shows them, with their flags. Names as keys: a message
 * made at import would be English before the catalogue loads (lib/i18n.ts).
 */
export const rightsNotices: { documentType: string; ackField: string; nameKey: MessageKey }[] = [
  { documentType: 'rights_fed', ackField: 'ackFed', nameKey: 'legal.notice.aSummaryOfYourRights' },
  { documentType: 'rights_nj', ackField: 'ackNj', nameKey: 'legal.notice.newJerseyNotice' },
  { documentType: 'rights_wa', ackField: 'ackWa', nameKey: 'legal.notice.washingtonStateNotice' },
  { documentType: 'rights_sf', ackField: 'ackSf', nameKey: 'legal.notice.sanFranciscoFairChanceOrdinance' },
  { documentType: 'rights_ny23a', ackField: 'ackNy', nameKey: 'legal.notice.newYorkCorrectionLawArticle' },
  { documentType: 'rights_ca_credit', ackField: 'ackCaCredit', nameKey: 'legal.notice.californiaCreditReportNotice' },
  { documentType: 'rights_vt_credit', ackField: 'ackVtCredit', nameKey: 'legal.notice.vermontCreditReportNotice' },
  { documentType: 'rights_md_credit', ackField: 'ackMdCredit', nameKey: 'legal.notice.marylandCreditReportNotice' },
];

const priorities: Record<string, number> = {
  e_sign: 100,
  disclosure: 99,
  investigative_consumer_report: 98,
  california_disclosure: 97,
  addl_state_disclosures: 96,
  rights: 95,
  authorization_for_background: -100,
};

/** The plain rights type and the listed notices; any other type is a step of its own. */
export function isRightsDocument(documentType: string): boolean {
  return documentType === RIGHTS || rightsNotices.some((n) => n.documentType === documentType);
}

export function stepType(documentType: string): string {
  return isRightsDocument(documentType) ? RIGHTS : documentType;
}

export function priorityOf(documentType: string): number {
  return priorities[stepType(documentType)] ?? 0;
}

function sameState(a: string | undefined, b: string | undefined): boolean {
  const x = (a ?? '').trim();
  return x !== '' && x.toLowerCase() === (b ?? '').trim().toLowerCase();
}

function regionMatches(region: Region, place: Place): boolean {
  return sameState(region.state, place.state) || (!!region.county && region.county === place.county);
}

/** Visibility only: all always; non_us outside the US; otherwise a matching region. */
export function applies(type: LegalDocumentType, location: Location): boolean {
  if (type.visibility === 'all') return true;
  if (type.visibility === 'non_us') return location.residency.nonUs || location.employment.nonUs;
  return (type.regions ?? []).some(
    (r) => regionMatches(r, location.residency) || regionMatches(r, location.employment),
  );
}

/**
 * The counties of a state worth asking about: those of the counties lookup
 * that a document the applicant could sign names in its regions. Empty when
 * no notice of the state depends on the county, so the question is not asked.
 */
export function countiesWithNotices<C extends { id: number; stateCode: string }>(
  documents: LegalDocument[],
  counties: C[],
  state: string,
): C[] {
  const named = new Set(
    documents
      .filter((d) => d.type.editable && d.type.visibility !== 'all' && d.type.visibility !== 'non_us')
      .flatMap((d) => (d.type.regions ?? []).map((r) => r.county ?? 0)),
  );
  return counties.filter((c) => sameState(c.stateCode, state) && named.has(c.id));
}

function rightsOrder(documentType: string): number {
  if (documentType === RIGHTS) return -1;
  const i = rightsNotices.findIndex((n) => n.documentType === documentType);
  return i < 0 ? rightsNotices.length : i;
}

/** The steps the applicant signs: applicable editable documents by priority, rights merged. */
export function legalSteps(documents: LegalDocument[], location: Location): LegalStep[] {
  const shown = documents
    .filter((d) => d.type.editable && applies(d.type, location))
    .sort((a, b) => priorityOf(b.type.documentType) - priorityOf(a.type.documentType) || a.id - b.id);
  const steps: LegalStep[] = [];
  let rights: LegalStep | undefined;
  for (const d of shown) {
    const type = d.type.documentType;
    if (!isRightsDocument(type)) {
      steps.push({ documentType: type, priority: priorityOf(type), documents: [d], ackFlags: [] });
      continue;
    }
    if (!rights) {
      rights = { documentType: RIGHTS, priority: priorityOf(RIGHTS), documents: [], ackFlags: [] };
      steps.push(rights);
    }
    rights.documents.push(d);
  }
  if (rights) {
    rights.documents.sort((a, b) => rightsOrder(a.type.documentType) - rightsOrder(b.type.documentType) || a.id - b.id);
    rights.ackFlags = ['ackReceiptYourRights'];
    for (const d of rights.documents) {
      const notice = rightsNotices.find((n) => n.documentType === d.type.documentType);
      if (notice && !rights.ackFlags.includes(notice.ackField)) rights.ackFlags.push(notice.ackField);
    }
  }
  return steps;
}

export function stepSigned(step: LegalStep): boolean {
  return step.documents.every((d) => d.signature !== null);
}

/** Residency or employment in California, Oklahoma or Minnesota offers a free copy of the report. */
export function freeReportCopyOffered(location: Location): boolean {
  return ['US-CA', 'US-OK', 'US-MN'].some(
    (s) => sameState(s, location.residency.state) || sameState(s, location.employment.state),
  );
}

/** The print page's kebab-case name of a document type (e_sign -> esign, ...). */
export const printNames: Record<string, string> = {
  authorization_for_background: 'authorization',
  california_disclosure: 'california-disclosure',
  disclosure: 'disclosure',
  dot_release: 'dot-release',
  e_sign: 'esign',
  investigative_consumer_report: 'investigative',
  rights: 'rights',
  addl_state_disclosures: 'statedisclose',
};

export function printNameOf(documentType: string): string {
  return printNames[stepType(documentType)] ?? documentType.replace(/_/g, '-').toLowerCase();
}
