import { cleanHtml } from './page-parts';

describe('cleanHtml', () => {
  it("drops the class names a microformats parser reads, so that stored HTML adds no h-event and no property to the page's", () => {
    const stored =
      '<div class="h-event wide"><p class="p-name e-content">x</p><span class="dt-start u-url p-category">y</span>' +
      '<div class="vevent"><span class="summary">z</span></div><p class="adr vcard hentry item">w</p></div>';
    expect(cleanHtml(stored)).toBe('<div class="wide"><p>x</p><span>y</span><div><span class="summary">z</span></div><p>w</p></div>');
  });

  it('keeps other class names, including ones that only look alike', () => {
    const stored = '<p class="alignleft wp-block-quote address items hentry2 hp-x">x</p>';
    expect(cleanHtml(stored)).toBe(stored);
  });

  it('still cleans what the write path cleans', () => {
    expect(cleanHtml('<p onclick="x()">Hi <script>alert(1)</script>there</p>')).toBe('<p>Hi there</p>');
    expect(cleanHtml(undefined)).toBe('');
  });
});
