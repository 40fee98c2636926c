// The editing pages work without this script; with it, a form that failed puts the focus on its
// list of problems, and a button with data-confirm asks before it sends its form.
(function () {
  'use strict';
  document.addEventListener('DOMContentLoaded', function () {
    var summary = document.getElementById('error-summary');
    if (summary) summary.focus();
  });
  document.addEventListener('submit', function (event) {
    var button = event.submitter;
    var question = button && button.getAttribute('data-confirm');
    if (question && !window.confirm(question)) event.preventDefault();
  });
})();
