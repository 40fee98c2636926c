import { autop, decodeEntities, firstWords, htmlToText, plainJsonLd, stripTags } from './autop';

describe('autop', () => {
  it.each([
    // [stored, returned] — the first two are the examples of README.md §8
    ['Event 01 description', '<p>Event 01 description</p>'],
    ['Line 1\nLine 2\n\nPara 2', '<p>Line 1<br />\nLine 2</p>\n<p>Para 2</p>'],
    // empty
    ['', ''],
    ['   \n\n  ', ''],
    // line endings
    ['Line 1\r\nLine 2\r\n\r\nPara 2', '<p>Line 1<br />\nLine 2</p>\n<p>Para 2</p>'],
    ['Line 1\rLine 2\r\rPara 2', '<p>Line 1<br />\nLine 2</p>\n<p>Para 2</p>'],
    // blank lines: more than two newlines, whitespace-only lines between
    ['A\n\n\n\nB', '<p>A</p>\n<p>B</p>'],
    ['A\n   \n\t\nB', '<p>A</p>\n<p>B</p>'],
    ['A\n \nB\n\nC', '<p>A</p>\n<p>B</p>\n<p>C</p>'],
    // surrounding whitespace is trimmed, per paragraph and overall
    ['\n\n  Text  \n\n', '<p>Text</p>'],
    ['A   \nB', '<p>A<br />\nB</p>'],
    // block-level tags are left alone, case-insensitively
    ['<p>Already</p>', '<p>Already</p>'],
    ['<div class="x">A\nB</div>', '<div class="x">A\nB</div>'],
    ['<UL><li>one</li></UL>', '<UL><li>one</li></UL>'],
    ['<h2>Title</h2>\n\nBody', '<h2>Title</h2>\n<p>Body</p>'],
    ['<hr/>\n\n<hr>\n\n<HR />', '<hr/>\n<hr>\n<HR />'],
    ['<blockquote>Q</blockquote>', '<blockquote>Q</blockquote>'],
    ['<table><tr><td>1</td></tr></table>', '<table><tr><td>1</td></tr></table>'],
    ['<figure><img src="a.png"></figure>', '<figure><img src="a.png"></figure>'],
    // the rule looks only at how a paragraph starts; unlike WordPress it does not repair
    // a paragraph that ends inside a block
    ['<div>\nA\n\nB\n</div>', '<div>\nA\n<p>B<br />\n</div></p>'],
    ['<section>S</section>\n\n<form>F</form>\n\n<pre>P</pre>', '<section>S</section>\n<form>F</form>\n<pre>P</pre>'],
    // inline tags and look-alike names are wrapped
    ['<strong>Bold</strong> start', '<p><strong>Bold</strong> start</p>'],
    ['<span>s</span>', '<p><span>s</span></p>'],
    ['<pre-formatted>x', '<p><pre-formatted>x</p>'],
    ['<param name="a">', '<p><param name="a"></p>'],
    ['<header>h</header>', '<p><header>h</header></p>'],
    // a closing block tag after a blank line is not wrapped
    ['<div>\nA\n\n</div>', '<div>\nA\n</div>'],
    // an existing <br> does not get a second one
    ['A<br />\nB<br>\nC<BR/>  \nD', '<p>A<br />\nB<br>\nC<BR/>  \nD</p>'],
  ])('%j → %j', (stored, expected) => {
    expect(autop(stored)).toBe(expected);
  });

  it.each([null, undefined])('%j → ""', (stored) => {
    expect(autop(stored)).toBe('');
  });
});

describe('decodeEntities', () => {
  it.each([
    ['Tom &amp; Jerry', 'Tom & Jerry'],
    ['&lt;b&gt; &quot;q&quot; &apos;a&apos; &AMP;', '<b> "q" \'a\' &'],
    ['Don&#8217;t &#x2019; &#X2019;', 'Don\u2019t \u2019 \u2019'],
    ['a&nbsp;b &hellip; &ndash; &mdash;', 'a\u00a0b \u2026 \u2013 \u2014'],
    ['&amp;lt;', '&lt;'],
    // unknown or invalid references are kept as written
    ['&bogus; &#0; &#xD800; &#1114112; & alone', '&bogus; &#0; &#xD800; &#1114112; & alone'],
  ])('%j → %j', (input, expected) => {
    expect(decodeEntities(input)).toBe(expected);
  });
});

describe('stripTags', () => {
  it.each([
    ['<p>Event 01 description</p>', 'Event 01 description'],
    ['<p>Line 1<br />\nLine 2</p>\n<p>Para 2</p>', 'Line 1 Line 2 Para 2'],
    ['<p>One</p><p>Two</p>', 'One Two'],
    ['A<br>B<br/>C', 'A B C'],
    ['<strong>W</strong>ord and <a href="/x">link</a>', 'Word and link'],
    ['<script>alert(1)</script>Text<style>p{color:red}</style>', 'Text'],
    ['<SCRIPT type="x">var a = "<p>";</SCRIPT>After', 'After'],
    ['<!-- comment -->Visible', 'Visible'],
    ['Tom &amp; Jerry &#8217;s', 'Tom & Jerry \u2019s'],
    // encoded markup never decodes back into markup (JSON-LD is embedded in pages)
    ['&lt;b&gt;not a tag&lt;/b&gt;', 'not a tag'],
    ['Gig &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;', 'Gig'],
    // decoded once only: what stays encoded is text, not markup
    ['&amp;lt;script&amp;gt;x()&amp;lt;/script&amp;gt; twice', '&lt;script&gt;x()&lt;/script&gt; twice'],
    ['&lt;img src=x onerror=alert(1)&gt;Photo', 'Photo'],
    ['1 &lt; 2', '1 < 2'],
    // a tag left open never closes: its `<` becomes a look-alike that opens nothing
    ['P <img src=x onerror=alert(1', 'P \u2039img src=x onerror=alert(1'],
    ['a < b and c > d', 'a < b and c > d'],
    ['  lots \n\n of\t\twhite&nbsp;space  ', 'lots of white space'],
    ['', ''],
    ['<p></p>', ''],
  ])('%j → %j', (html, expected) => {
    expect(stripTags(html)).toBe(expected);
  });
});

describe('firstWords', () => {
  it.each([
    ['one two three', 2, 'one two'],
    ['one two three', 3, 'one two three'],
    ['one two three', 10, 'one two three'],
    ['  one \n two\tthree  ', 2, 'one two'],
    ['one', 0, ''],
    ['', 5, ''],
    ['   ', 5, ''],
  ])('%j, %i → %j', (text, n, expected) => {
    expect(firstWords(text, n)).toBe(expected);
  });

  it('takes the first 55 words of a long description (JSON-LD rule)', () => {
    const words = Array.from({ length: 80 }, (_, i) => `w${i + 1}`);
    const html = `<p>${words.slice(0, 40).join(' ')}</p>\n<p>${words.slice(40).join(' ')}</p>`;
    expect(firstWords(stripTags(html), 55)).toBe(words.slice(0, 55).join(' '));
  });
});

describe('htmlToText', () => {
  it.each([
    // what autop makes of a stored description: lines and paragraphs come back
    ['<p>Line 1<br />\nLine 2</p>\n<p>Para 2</p>', 'Line 1\nLine 2\n\nPara 2'],
    ['<p>Bring <strong>snacks</strong> &amp; drinks; 5&euro;, cash</p>', 'Bring snacks & drinks; 5\u20ac, cash'],
    // source newlines and runs of spaces are one space, as a browser shows them
    ['<p>one\ntwo   three</p>', 'one two three'],
    // list items and table rows are lines; blocks are paragraphs
    ['<ul><li>a</li><li>b</li></ul><p>after</p>', 'a\nb\n\nafter'],
    ['<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table>', '1 2\n3'],
    ['<h2>Title</h2>Body', 'Title\n\nBody'],
    ['A<hr>B', 'A\n\nB'],
    // never more than one blank line, none at the ends
    ['<p></p><p>x</p><br><br><br><p>y</p><p></p>', 'x\n\ny'],
    // what is not text goes, with the breaks inside it
    ['<p>a</p><script>x<br>y</script><p>b</p>', 'a\n\nb'],
    // an encoded tag is never a break (and goes, as stripTags has it)
    ['<p>a&lt;br&gt;b</p>', 'a b'],
    // the private-use characters that mark breaks cannot be smuggled in
    ['a\ue000b\ue001c', 'abc'],
    ['', ''],
  ])('%j → %j', (html, text) => expect(htmlToText(html)).toBe(text));
});

describe('plainJsonLd', () => {
  it('makes every string with markup plain text, at any depth, without changing its input', () => {
    const input = { name: '<b>Jazz</b> night', location: { address: { street: 'Main <i>St</i>' } }, tags: ['a', '<em>b</em>'], n: 3, none: null };
    const before = JSON.stringify(input);
    expect(plainJsonLd(input)).toEqual({ name: 'Jazz night', location: { address: { street: 'Main St' } }, tags: ['a', 'b'], n: 3, none: null });
    expect(JSON.stringify(input)).toBe(before);
  });

  it('returns what holds no markup as it came, and copies only the branches that changed', () => {
    const clean = { name: 'Jazz', location: { name: 'Hall' }, list: ['x'] };
    expect(plainJsonLd(clean)).toBe(clean);
    const mixed = { name: '<b>Jazz</b>', location: { name: 'Hall' } };
    const plain = plainJsonLd(mixed);
    expect(plain).not.toBe(mixed);
    expect(plain.location).toBe(mixed.location);
  });
});
