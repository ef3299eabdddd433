"""The training recipe's own steps (models/train.py). They need the training extra
(torch, ultralytics, onnx), which CI does not install: skipped without it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "models" / "cueref-detector.onnx"


def _recipe():
    spec = importlib.util.spec_from_file_location("cueref_train_recipe",
                                                  ROOT / "models" / "train.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_checkpoint_unfolded_from_the_onnx_file_computes_what_the_file_computes(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("ultralytics")
    pytest.importorskip("onnx")
    import cv2
    import onnxruntime as ort

    recipe = _recipe()
    recipe._offline(tmp_path / "build")  # (ultralytics' settings kept in the tmp folder)
    rng = np.random.default_rng(0)
    images = []
    for k in range(4):  # views for the statistics: any will do for the equality
        img = rng.integers(0, 256, (320, 640, 3), dtype=np.uint8)
        images.append(tmp_path / f"{k}.jpg")
        cv2.imwrite(str(images[-1]), img)
    out = recipe.weights_from_onnx(MODEL, images, tmp_path / "init.pt", max_images=4)
    net = torch.load(out, weights_only=False)["model"].eval()
    x = rng.random((1, 3, 320, 640), dtype=np.float32)
    want = ort.InferenceSession(str(MODEL)).run(None, {"images": x})[0]
    with torch.no_grad():
        got = net(torch.from_numpy(x))
    got = (got[0] if isinstance(got, (list, tuple)) else got).numpy()
    assert got.shape == want.shape
    assert np.abs(got[:, :4] - want[:, :4]).max() < 0.01  # box, input px
    assert np.abs(got[:, 4:] - want[:, 4:]).max() < 1e-4  # class scores
    # (the BatchNorms now carry real statistics, not the unit ones of a folded layer)
    bn = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert len(bn) > 40 and any(float(m.running_var.mean()) != pytest.approx(1.0) for m in bn)


def test_onnx_file_of_another_network_is_refused_naming_the_file(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("ultralytics")
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    recipe = _recipe()
    recipe._offline(tmp_path / "build")
    other = tmp_path / "other.onnx"
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "other",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    onnx.save(helper.make_model(graph), str(other))
    with pytest.raises(ValueError, match="other.onnx: not an export of cueref-det.yaml"):
        recipe.weights_from_onnx(other, [], tmp_path / "init.pt")
