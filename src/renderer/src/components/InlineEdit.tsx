import { useState } from 'react';

/**
 * A text field that replaces a label while the user renames something:
 * focused at once, Enter or leaving the field saves, Escape cancels.
 */
export function InlineEdit({
  initial,
  label,
  className,
  placeholder,
  maxLength = 200,
  onCommit,
  onCancel,
}: {
  initial: string;
  label: string;
  className: string;
  placeholder?: string;
  maxLength?: number;
  onCommit: (value: string) => void | Promise<void>;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <input
      className={`inline-edit ${className}`}
      aria-label={label}
      value={value}
      maxLength={maxLength}
      // The user asked to rename: focus belongs in the field.
      autoFocus
      placeholder={placeholder}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => void onCommit(value.trim())}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void onCommit(value.trim());
        if (e.key === 'Escape') onCancel();
      }}
    />
  );
}
