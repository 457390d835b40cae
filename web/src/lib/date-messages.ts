// The date input's area of the message catalogue ("date"): no page before login asks for a date, so
// these words stay off /login's first load (lib/i18n.ts). Each module that names its keys imports this.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/date.json';

addMessages('date', messages);
