"""Constants shared by the report tests' fixtures and the tests themselves."""

#: A model name and a response with markup in them: the page must show them as text.
HOSTILE_MODEL = 'evil<b onmouseover="alert(1)">&amp;</b>\'model'
HOSTILE_TEXT = "</script><script>window.__pwned = 1</script> Gate 1: <img src=x onerror=alert(2)> \u2028 PROCEED"
