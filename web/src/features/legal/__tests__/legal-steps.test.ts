import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeReportCopyOffered, legalSteps, type LegalDocument, type Location } from '../lib/legal-steps';

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
