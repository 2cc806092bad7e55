/** An on/off setting: a real checkbox with role="switch", its label and an optional help line. */
import { useId, type ReactNode } from 'react';

export function Switch({
  label,
  checked,
  onChange,
  help,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange(v: boolean): void;
  help?: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="switch">
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={help ? `${id}-help` : undefined}
      />
      <label htmlFor={id}>
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
        <span className="switch__label">{label}</span>
      </label>
      {help && (
        <p id={`${id}-help`} className="field__help switch__help">
          {help}
        </p>
      )}
    </div>
  );
}
