// Completion page: Mechanical Turk needs the assignmentId posted to turkSubmitTo.
const form = document.querySelector("form[data-autosubmit]");
if (form) form.submit();
