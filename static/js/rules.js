/* The rules page (templates/competition/season_rules.html): only the chosen system's parameters
   show; the other systems' are in a <details>. When the admin chooses another system, its
   fieldset moves up beside the choice and the one before goes back behind the switch. Without
   JavaScript the <details> still opens. */
(function () {
  "use strict";
  var select = document.getElementById("id_system");
  var chosen = document.getElementById("chosen-system-parameters");
  var others = document.getElementById("other-systems");
  if (!select || !chosen || !others) {
    return;
  }
  select.addEventListener("change", function () {
    var wanted = others.querySelector('fieldset[data-system="' + select.value + '"]');
    if (!wanted) {
      return;
    }
    Array.prototype.forEach.call(chosen.querySelectorAll("fieldset[data-system]"), function (fieldset) {
      others.appendChild(fieldset);
    });
    chosen.appendChild(wanted);
  });
})();
