// The layout rules of STYLE.md live in eslint.config.js (they replaced
// scripts/check-imports.mjs): each case is a file at a path with one import,
// and whether ESLint lets it through. import/no-cycle reads the modules from
// disk: its cases are the files of ./cycle-fixture, which switch the rule off
// for the app's own lint with a comment that these runs do not read.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The cases below are texts at made-up paths, which import/no-cycle cannot follow.
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: { rules: { 'import/no-cycle': 'off' } } });
const withoutComments = new ESLint({ cwd: process.cwd(), allowInlineConfig: false });

async function layoutProblems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return result.messages
    .filter(
      (m) =>
        m.ruleId?.startsWith('boundaries/') || m.ruleId?.startsWith('layout/') || m.ruleId === 'no-restricted-imports',
    )
    .map((m) => m.ruleId as string);
}

const cases: { name: string; file: string; code: string; problems: string[] }[] = [
  {
    name: 'a feature imports its own modules and shared code',
    file: 'src/features/banner/components/x.tsx',
    code: "import '../api/get-active-banner';\nimport '@/features/banner/api/dismiss-banner';\nimport '@/lib/i18n';\nimport '@/components/ui/button';",
    problems: [],
  },
  {
    name: 'a feature does not import another feature by alias',
    file: 'src/features/banner/components/x.tsx',
    code: "import '@/features/legal/lib/legal-steps';",
    problems: ['boundaries/dependencies'],
  },
  {
    name: 'a feature does not import another feature by a relative path, nor lazily',
    file: 'src/features/banner/components/x.tsx',
    code: "import '../../legal/lib/legal-steps';\nvoid import('@/features/personal/lib/personal-rules');",
    problems: ['boundaries/dependencies', 'boundaries/dependencies'],
  },
  {
    name: 'a feature does not import the app layer',
    file: 'src/features/banner/components/x.tsx',
    code: "export { guardLoader } from '@/app/guards';",
    problems: ['boundaries/dependencies'],
  },
  {
    name: 'shared code imports neither features nor the app',
    file: 'src/lib/x.ts',
    code: "import '@/features/legal/lib/legal-steps';\nimport '@/app/guards';",
    problems: ['boundaries/dependencies', 'boundaries/dependencies'],
  },
  {
    name: 'the app imports features',
    file: 'src/app/routes/x.tsx',
    code: "import '@/features/legal/lib/legal-steps';",
    problems: [],
  },
  {
    name: 'tests and test helpers import anything',
    file: 'src/lib/__tests__/x.test.ts',
    code: "import '@/app/guards';\nimport '@/features/legal/lib/legal-steps';",
    problems: [],
  },
  {
    name: 'file and folder names are kebab-case',
    file: 'src/features/banner/Some_Folder/fileName.ts',
    code: '',
    problems: ['layout/file-names', 'layout/file-names'],
  },
  { name: 'a locale folder keeps its language tag', file: 'src/locales/en-US/messages.ts', code: '', problems: [] },
  {
    name: "a form keeps a refused save with useFailedSave, never putting the server's errors on fields itself",
    file: 'src/features/banner/components/x.tsx',
    code: "import { applyServerErrors } from '@/lib/form-errors';\nimport { invalidFields } from '../../../lib/form-errors';\nimport '@/lib/failed-save';",
    problems: ['no-restricted-imports', 'no-restricted-imports'],
  },
  {
    name: 'the failed-save hook itself reads the server errors',
    file: 'src/lib/failed-save.ts',
    code: "import { applyServerErrors } from './form-errors';",
    problems: [],
  },
  { name: 'barrel files are not used', file: 'src/lib/index.ts', code: '', problems: ['layout/file-names'] },
];

describe('the layout rules (eslint.config.js)', () => {
  it.each(cases)('$name', async ({ file, code, problems }) => {
    expect(await layoutProblems(file, code)).toEqual(problems);
  });
});

describe('import cycles (import/no-cycle)', () => {
  it.each([
    { file: 'first.ts', problems: ['import/no-cycle'] },
    { file: 'second.ts', problems: ['import/no-cycle'] },
    { file: 'types-only.ts', problems: [] },
  ])('are reported, lazy imports included, type-only imports not: $file', async ({ file, problems }) => {
    const [result] = await withoutComments.lintFiles(`src/app/__tests__/cycle-fixture/${file}`);
    expect(result.messages.map((m) => m.ruleId)).toEqual(problems);
  });
});
