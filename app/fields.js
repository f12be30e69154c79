// Checking what is typed into a number field, with the reason in the page's words.

// -> {value, error}: value is the whole number to use, or null; error says why not.
// An empty field is only an error once the user leaves it (`leaving`).
export function checkNumber(input, label, min, leaving) {
  const raw = input.value.trim();
  if (raw === "" && !input.validity.badInput) {
    return { value: null, error: leaving ? `${label} is needed: type a whole number of ${min} or more.` : null };
  }
  const n = input.valueAsNumber;
  if (!Number.isFinite(n)) return { value: null, error: `${label} must be a whole number, like ${min === 0 ? 32 : 512}.` };
  if (!Number.isInteger(n)) return { value: null, error: `${label} must be a whole number, not ${raw}.` };
  if (n < min) return { value: null, error: `${label} must be ${min === 0 ? "0 or more" : `at least ${min}`}, not ${raw}.` };
  if (input.max && n > Number(input.max)) return { value: null, error: `${label} can be at most ${Number(input.max).toLocaleString("en-US")}.` };
  return { value: n, error: null };
}

// Marks the field invalid (for assistive technology) while it holds an error.
export function markValidity(input, error) {
  if (error) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}
