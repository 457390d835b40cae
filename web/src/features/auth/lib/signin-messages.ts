// The sign-in code's and the new link's area of the message catalogue
// ("signin"): both load lazily, so their words stay off /login's first load
// (lib/i18n.ts). Each module that names their keys imports this first.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/signin.json';

addMessages('signin', messages);
