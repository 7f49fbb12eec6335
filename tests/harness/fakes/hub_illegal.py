"""A fake Hub engine that plays --move (default 1-7, legal nowhere) in every unknown position."""

from hub_common import parser, send, serve

arguments = parser(__doc__)
arguments.add_argument("--move", default="1-7")
options = arguments.parse_args()
serve(options.answer, lambda position: send(f"done move={options.move}"))
