// The upload field's area of the message catalogue, loaded with the pages that upload (documents,
// chat) rather than with /login (lib/i18n.ts). Every module that names its keys imports this first.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/upload.json';

addMessages('upload', messages);
