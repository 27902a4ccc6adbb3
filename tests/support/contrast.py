"""WCAG's contrast ratio of an element's text in a Playwright page."""

from __future__ import annotations

from playwright.sync_api import Page

# WCAG's contrast ratio of an element's text against what it is drawn on: the nearest ancestor
# background that is not transparent (Material's schemes paint the body).
CONTRAST = """element => {
  const rgb = color => (color.match(/[\\d.]+/g) || []).map(Number);
  let back = null;
  for (let at = element; at && !back; at = at.parentElement) {
    const c = rgb(getComputedStyle(at).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) back = c;
  }
  back = back || [255, 255, 255];
  const luminance = ([r, g, b]) => {
    const f = v => (v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const fore = rgb(getComputedStyle(element).color);
  const alpha = fore.length === 4 ? fore[3] : 1;
  const mixed = fore.slice(0, 3).map((v, i) => v * alpha + back[i] * (1 - alpha));
  const [a, b] = [luminance(mixed), luminance(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def contrast(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate(CONTRAST))
