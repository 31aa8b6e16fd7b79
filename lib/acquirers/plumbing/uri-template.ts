// RFC 6570 URI Templates, the subset HAL APIs hand out: simple expansion `{id}`, form-style query
// `{?query,page,per_page}` and its continuation `{&page}`. Reporting clients follow the links an API
// gives and fill in its templates rather than building URLs (the Clearhaus Merchant API: "don't
// rely on URLs"). Variables left undefined drop out, as the RFC says; any other operator is refused
// so that a template we cannot expand is never sent half-expanded.

export type TemplateValues = Readonly<Record<string, string | number | undefined>>;

/** Percent-encodes everything but RFC 3986 unreserved characters (the RFC's rule for `{var}`, `{?var}`, `{&var}`). */
function encodeUnreserved(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

export class UriTemplateError extends Error {
  constructor(template: string, expression: string) {
    super(`URI template expression {${expression}} is not supported (template ${template})`);
    this.name = "UriTemplateError";
  }
}

/** `template` with `values` filled in (level 3 subset: no operator, `?` and `&`). */
export function expandUriTemplate(template: string, values: TemplateValues = {}): string {
  return template.replace(/\{([^}]*)\}/g, (_match, expression: string) => {
    const operator = /^[?&]/.test(expression) ? expression[0]! : "";
    const names = (operator ? expression.slice(1) : expression).split(",");
    if (names.some((name) => !/^[A-Za-z0-9_.]+$/.test(name))) throw new UriTemplateError(template, expression);
    const defined = names.flatMap((name) => (values[name] === undefined ? [] : [[name, String(values[name])] as const]));
    if (!operator) return defined.map(([, value]) => encodeUnreserved(value)).join(",");
    if (defined.length === 0) return "";
    return `${operator}${defined.map(([name, value]) => `${name}=${encodeUnreserved(value)}`).join("&")}`;
  });
}
