import { expect, it } from 'vitest';
import { renderCatalogue } from '../src/catalogue.js';
import { rules } from '../src/rules/index.js';

it('docs/rules.md is generated from the rule modules (run vitest -u to refresh)', async () => {
  await expect(renderCatalogue(rules)).toMatchFileSnapshot('../../../docs/rules.md');
});
