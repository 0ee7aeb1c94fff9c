"""The head judge switches what the hall's projectors show (from the live rounds screen)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from puzzlecomp.championships.messages import form_errors_to_messages
from puzzlecomp.championships.models import Championship, ProjectorScene, Role
from puzzlecomp.championships.roles import requires_role
from puzzlecomp.championships.services.projector import projector_scene_set
from puzzlecomp.control.live.forms import ProjectorSceneForm

# The values of a refused switch, kept for the form shown after the redirect.
REFUSED = "projector_refused"
FIELDS = ("scene", "round", "group", "message")


def scene_form(championship: Championship,
               refused: dict[str, str] | None = None) -> ProjectorSceneForm:
    """The form as the projectors stand now, or as the head judge filled it in when the switch
    was refused (nothing they typed is lost)."""
    if refused:
        return ProjectorSceneForm(championship=championship, initial=refused)
    # The message is not carried over: it leaves the projectors with its scene.
    return ProjectorSceneForm(championship=championship, initial={
        "scene": championship.projector_scene, "round": championship.projector_round_id,
        "group": championship.projector_group})


def projector_now(championship: Championship) -> dict[str, str]:
    """What the hall's projectors show now, in words: scene, round, group and message."""
    rnd = championship.projector_round
    alone = championship.projector_scene == ProjectorScene.MESSAGE or rnd is None
    group = championship.projector_group
    return {
        "scene": str(championship.get_projector_scene_display()),
        "round": "" if alone or rnd is None
        else f"{rnd.event.display_name} · {rnd.display_name}",
        "group": "" if alone or not (rnd and rnd.groups)
        else _("Group %(group)s") % {"group": group} if group else _("Every group"),
        "message": championship.projector_message,
    }


@requires_role(Role.HEAD_JUDGE)
@require_POST
def projector_scene(request: HttpRequest, championship: Championship) -> HttpResponse:
    form = ProjectorSceneForm(request.POST, championship=championship)
    if not form.is_valid():
        form_errors_to_messages(request, form)
        request.session[REFUSED] = {name: request.POST.get(name, "") for name in FIELDS}
    else:
        data = form.cleaned_data
        scene = ProjectorScene(data["scene"])
        alone = scene == ProjectorScene.MESSAGE
        projector_scene_set(championship=championship, scene=scene,
                            round=None if alone else data["round"],
                            group="" if alone else data["group"] or "",
                            message=data["message"], user=request.user)
        messages.success(request, _("The projectors now show: %(scene)s.")
                         % {"scene": scene.label})
    return redirect("control:live:index", championship.slug)
