// The editing pages work without this script; with it, a form that failed puts the focus on its
// list of problems, a button with data-confirm asks before it sends its form, and the preview of
// a series' next dates follows the "Repeats" fields as they change.
(function () {
  'use strict';
  document.addEventListener('DOMContentLoaded', function () {
    var summary = document.getElementById('error-summary');
    if (summary) summary.focus();
  });
  // The preview is the server's: the same post as "Show the next dates" (which writes nothing),
  // sent to the form's own address; only the preview is taken from the page it answers.
  document.addEventListener('DOMContentLoaded', function () {
    var preview = document.getElementById('repeat-preview');
    var form = preview && preview.closest('form');
    if (!form || !window.fetch || !window.DOMParser) return;
    var timer = null;
    var latest = 0;
    function refresh() {
      var body = new URLSearchParams(new FormData(form));
      body.delete('action');
      body.set('repeat_preview', '1');
      var ticket = ++latest;
      // form.action would be the buttons named "action": the attribute is the address.
      fetch(form.getAttribute('action'), {
        method: 'POST',
        body: body.toString(),
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })
        .then(function (res) {
          return res.text();
        })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('repeat-preview');
          if (ticket === latest && fresh) preview.innerHTML = fresh.innerHTML;
        })
        .catch(function () {});
    }
    function changed(event) {
      var name = event.target && event.target.name;
      if (!name || !/^(repeat|start_|end_|all_day|timezone)/.test(name)) return;
      clearTimeout(timer);
      timer = setTimeout(refresh, 300);
    }
    form.addEventListener('input', changed);
    form.addEventListener('change', changed);
  });
  document.addEventListener('submit', function (event) {
    var button = event.submitter;
    var question = button && button.getAttribute('data-confirm');
    if (question && !window.confirm(question)) event.preventDefault();
  });
})();
