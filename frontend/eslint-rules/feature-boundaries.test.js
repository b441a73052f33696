// @vitest-environment node
import { afterAll, describe, it } from 'vitest';
import { RuleTester } from 'eslint';
import rule from './feature-boundaries.js';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });
const src = '/repo/frontend/src';

tester.run('feature-boundaries', rule, {
  valid: [
    { filename: `${src}/features/search/search-page.tsx`, code: "import { x } from '../profiles';" },
    { filename: `${src}/features/search/search-page.tsx`, code: "import { x } from '../profiles/index';" },
    { filename: `${src}/features/search/search-page.tsx`, code: "import { x } from '../profiles/index.ts';" },
    { filename: `${src}/features/search/components/row.tsx`, code: "import { x } from '../../profiles';" },
    { filename: `${src}/features/search/components/row.tsx`, code: "import { x } from '../api';" },
    { filename: `${src}/features/search/components/row.tsx`, code: "import { x } from '../index';" },
    { filename: `${src}/features/search/search-page.tsx`, code: "import { x } from './components/row';" },
    { filename: `${src}/features/search/search-page.tsx`, code: "import { x } from '../../lib/session';" },
    { filename: `${src}/features/search/search-page.tsx`, code: "import { x } from '../../components/modal';" },
    { filename: `${src}/app/router.tsx`, code: "const page = import('../features/profiles/own-profile-page');" },
    { filename: `${src}/lib/http.ts`, code: "import { x } from './config';" },
    { filename: `${src}/components/avatar.tsx`, code: "import { x } from '../lib/config';" },
    { filename: `${src}/test/session.ts`, code: "import { x } from '../features/auth/sign-in-page';" },
    { filename: `${src}/features/search/search-page.tsx`, code: "import { useState } from 'react';" },
  ],
  invalid: [
    {
      // A feature's api.ts is its own: what others may use is re-exported by its index.ts.
      filename: `${src}/features/search/search-page.tsx`,
      code: "import { useListening } from '../profiles/api';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: `${src}/features/search/components/row.tsx`,
      code: "import { UserCardJson } from '../../profiles/api';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: `${src}/features/comments/x.ts`,
      code: "export { PostCard } from '../posts/components/post-card';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: `${src}/features/search/search-page.tsx`,
      code: "import { ListenButton } from '../profiles/components/listen-button';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: `${src}/features/settings/components/x.tsx`,
      code: "export { a } from '../../profiles/profile-validation';",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: `${src}/features/settings/x.tsx`,
      code: "const m = import('../profiles/own-profile-page');",
      errors: [{ messageId: 'internal' }],
    },
    {
      filename: `${src}/lib/session.ts`,
      code: "import { authQueries } from '../features/auth/api';",
      errors: [{ messageId: 'shared' }],
    },
    {
      filename: `${src}/components/user-link.tsx`,
      code: "import { NAV_LINKS } from '../app/nav-items';",
      errors: [{ messageId: 'shared' }],
    },
    {
      filename: `${src}/features/home/home-page.tsx`,
      code: "import { NAV_LINKS } from '../../app/nav-items';",
      errors: [{ messageId: 'shell' }],
    },
  ],
});
