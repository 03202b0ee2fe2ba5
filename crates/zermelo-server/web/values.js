// The values page: a value typed in -> GET /api/cgt/thermograph -> the facts and the picture.
"use strict";

const field = document.getElementById("value");
const errorBox = document.getElementById("value-error");
const picture = document.getElementById("picture");

function wall(points) {
  return points.map(([t, v]) => `(${t}, ${v})`).join(" ");
}

function show(answer) {
  document.getElementById("v-value").textContent = answer.value;
  document.getElementById("v-outcome").textContent = answer.outcome;
  document.getElementById("v-mean").textContent = answer.mean;
  document.getElementById("v-temperature").textContent = answer.temperature;
  document.getElementById("v-left").textContent = wall(answer.left_wall);
  document.getElementById("v-right").textContent = wall(answer.right_wall);
  // The server's own SVG, parsed as SVG (not HTML) so nothing in it runs.
  const doc = new DOMParser().parseFromString(answer.svg, "image/svg+xml");
  picture.replaceChildren(document.importNode(doc.documentElement, true));
}

async function draw(event) {
  if (event) event.preventDefault();
  errorBox.textContent = "";
  const value = field.value;
  const url = "/api/cgt/thermograph?value=" + encodeURIComponent(value);
  try {
    const response = await fetch(url);
    const answer = await response.json();
    if (!response.ok) {
      errorBox.textContent = answer.error || response.statusText;
      return;
    }
    show(answer);
    history.replaceState(null, "", "/values?value=" + encodeURIComponent(value));
  } catch (e) {
    errorBox.textContent = String(e);
  }
}

document.getElementById("value-form").addEventListener("submit", draw);
const asked = new URLSearchParams(location.search).get("value");
if (asked !== null) field.value = asked;
draw();
