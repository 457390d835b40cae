import { TextField, type TextFieldProps } from './text-field';

/** A date as the browser's own picker gives it (value yyyy-mm-dd): phones show their native wheel. */
export function DateField(props: Omit<TextFieldProps, 'type'>) {
  return <TextField type="date" {...props} />;
}
