import { useLingui } from "@lingui/react/macro";
import { ColorSwatch, ColorSwatchPicker, ColorSwatchPickerItem, Label } from "react-aria-components";
import { useId } from "react";
import { SUBTITLE_PALETTE } from "./options";
import { SWATCH_LABELS } from "./messages";

/** One of the 10 subtitle colours (SPEC §3 Subtitles); arrow keys move between swatches. */
export function SwatchPicker({ label, value, onChange, isDisabled }: { label: string; value: string; onChange: (hex: string) => void; isDisabled?: boolean }) {
  const { i18n } = useLingui();
  const labelId = useId();
  const current = value.toLowerCase();
  return (
    <div className="field swatch-field">
      <Label id={labelId} className="field-label" elementType="span">
        {label}
      </Label>
      <ColorSwatchPicker
        aria-labelledby={labelId}
        className="swatch-picker"
        // A colour outside the palette (set elsewhere) shows with no swatch selected.
        value={(SUBTITLE_PALETTE as readonly string[]).includes(current) ? current : undefined}
        onChange={(color) => onChange(color.toString("hex").toLowerCase())}
      >
        {SUBTITLE_PALETTE.map((hex) => (
          <ColorSwatchPickerItem key={hex} color={hex} className="swatch-item" isDisabled={isDisabled}>
            <ColorSwatch className="swatch" colorName={i18n._(SWATCH_LABELS[hex]!)} />
          </ColorSwatchPickerItem>
        ))}
      </ColorSwatchPicker>
    </div>
  );
}
