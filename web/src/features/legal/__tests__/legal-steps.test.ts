import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  countiesWithNotices,
  freeReportCopyOffered,
  legalSteps,
  type LegalDocument,
  type Location,
} from '../lib/legal-steps';

// The one table of cases the server's Go test reads too.
type Case = {
  name: string;
  documents: {
    id: number;
    documentType: string;
    visibility: string;
    regions: { state?: string; county?: number }[];
    editable: boolean;
  }[];
  location: Location;
  want: { documentType: string; documentIds: number[]; ackFlags?: string[] }[];
  freeReportCopy?: boolean;
};

const table = JSON.parse(
  // Vitest runs from web/.
  readFileSync(resolve(process.cwd(), '../internal/portal/testdata/legal-cases.json'), 'utf8'),
) as { cases: Case[] };

function documentsOf(c: Case): LegalDocument[] {
  return c.documents.map((d) => ({
    id: d.id,
    title: d.documentType,
    version: 1,
    signature: null,
    type: {
      id: d.id,
      documentType: d.documentType,
      visibility: d.visibility,
      regions: d.regions,
      code: d.documentType,
      editable: d.editable,
    },
  }));
}

describe('legal steps follow the shared table of the server', () => {
  it('has cases to check', () => {
    expect(table.cases.length).toBeGreaterThanOrEqual(15);
  });
  it.each(table.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const got = legalSteps(documentsOf(c), c.location).map((s) => {
      const step: Case['want'][number] = { documentType: s.documentType, documentIds: s.documents.map((d) => d.id) };
      if (s.ackFlags.length > 0) step.ackFlags = s.ackFlags;
      return step;
    });
    expect(got).toEqual(c.want);
    if (c.freeReportCopy !== undefined) expect(freeReportCopyOffered(c.location)).toBe(c.freeReportCopy);
  });
});

describe('the counties worth asking about in a state', () => {
  const counties = [
    { id: 6037, stateCode: 'US-CA' },
    { id: 6075, stateCode: 'US-CA' },
    { id: 36061, stateCode: 'US-NY' },
  ];
  const doc = (id: number, visibility: string, regions: { state?: string; county?: number }[], editable = true) =>
    documentsOf({
      name: '',
      location: {
        residency: { nonUs: false, state: '', county: 0 },
        employment: { nonUs: false, state: '', county: 0 },
      },
      want: [],
      documents: [{ id, documentType: 'rights_sf', visibility, regions, editable }],
    })[0];
  it.each([
    {
      name: 'a county notice of the state',
      docs: [doc(1, 'regional', [{ county: 6075 }])],
      state: 'US-CA',
      want: [6075],
    },
    {
      name: 'the state code in any case',
      docs: [doc(1, 'regional', [{ county: 6075 }])],
      state: 'us-ca',
      want: [6075],
    },
    { name: 'none in another state', docs: [doc(1, 'regional', [{ county: 6075 }])], state: 'US-NY', want: [] },
    {
      name: 'none for a state-wide notice',
      docs: [doc(1, 'regional', [{ state: 'US-CA' }])],
      state: 'US-CA',
      want: [],
    },
    {
      name: 'none for a non-editable notice',
      docs: [doc(1, 'regional', [{ county: 6075 }], false)],
      state: 'US-CA',
      want: [],
    },
    { name: 'none for a notice shown to all', docs: [doc(1, 'all', [{ county: 6075 }])], state: 'US-CA', want: [] },
    {
      name: 'each county named once, in the lookup order',
      docs: [doc(1, 'regional', [{ county: 6075 }]), doc(2, 'other', [{ county: 6037 }, { county: 6075 }])],
      state: 'US-CA',
      want: [6037, 6075],
    },
    { name: 'none without a state', docs: [doc(1, 'regional', [{ county: 6075 }])], state: '', want: [] },
  ])('$name', ({ docs, state, want }) => {
    expect(countiesWithNotices(docs, counties, state).map((c) => c.id)).toEqual(want);
  });
});
