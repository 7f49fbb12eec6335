"""A fake DXP follower that plays --move (default M0000010700: 1-7, legal nowhere) in every unknown position."""

from dxp_common import parser, serve

arguments = parser(__doc__)
arguments.add_argument("--move", default="M0000010700")
options = arguments.parse_args()
serve(options.answer, lambda link, key: link.send(options.move))
