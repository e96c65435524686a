//! The cell classifier: a small convolutional network over a cell's ink.
//!
//! Three 3x3 convolutions (8, 16, 32 channels), each followed by a `ReLU` and a 2x2 max
//! pool, take the 32x32 cell down to 32 maps of 4x4; a hidden layer of 64 units and an
//! output of [`CLASSES`] scores follow. About 40,000 weights, 160 KB as f32. The width is a
//! parameter ([`CellNet::with_width`]) so that wider networks can be trained and measured;
//! a width of 12 was, and read worse (`model/README.md`).

use candle_core::{DType, Device, Module, Tensor};
use candle_nn::{Conv2d, Conv2dConfig, Linear, VarBuilder, conv2d, linear};

/// The side of a cell, in pixels, as the network sees it.
pub const CELL_SIDE: usize = 32;

/// How many classes a cell falls in: empty, printed 1-9, handwritten 1-9, pencil marks.
pub const CLASSES: usize = 20;

/// The output index of [`Class::Marks`].
pub const MARKS: usize = 19;

/// What a cell holds, as the network tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// No digit.
    Empty,
    /// A printed digit (a given).
    Printed(u8),
    /// A handwritten digit (a player's entry).
    Handwritten(u8),
    /// Small pencil marks (a player's candidates) and no digit.
    Marks,
}

impl Class {
    /// The class of an output index.
    pub fn from_index(index: usize) -> Self {
        match index {
            0 => Self::Empty,
            1..=9 => Self::Printed(index as u8),
            MARKS => Self::Marks,
            _ => Self::Handwritten((index - 9) as u8),
        }
    }

    /// The output index of the class.
    pub fn index(self) -> usize {
        match self {
            Self::Empty => 0,
            Self::Printed(digit) => usize::from(digit),
            Self::Handwritten(digit) => 9 + usize::from(digit),
            Self::Marks => MARKS,
        }
    }
}

/// The network, with its weights.
#[derive(Debug)]
pub struct CellNet {
    layers: [Conv2d; 3],
    hidden: Linear,
    output: Linear,
}

/// The channels of the first convolution of the committed network.
pub const WIDTH: usize = 8;

/// The committed weights, made by `scripts/train/train.sh`.
static COMMITTED: &[u8] = include_bytes!("../model/cells.safetensors");

impl CellNet {
    /// The network over the weights a `VarBuilder` holds (or creates, when training).
    ///
    /// # Errors
    /// A weight missing or of the wrong shape.
    pub fn new(weights: &VarBuilder) -> candle_core::Result<Self> {
        Self::with_width(weights, WIDTH)
    }

    /// A network whose convolutions have `width`, twice and four times `width` channels and
    /// whose hidden layer has eight times `width` units (the committed one: [`WIDTH`]).
    ///
    /// # Errors
    /// A weight missing or of the wrong shape.
    pub fn with_width(weights: &VarBuilder, width: usize) -> candle_core::Result<Self> {
        let config = Conv2dConfig {
            padding: 1,
            ..Conv2dConfig::default()
        };
        Ok(Self {
            layers: [
                conv2d(1, width, 3, config, weights.pp("conv1"))?,
                conv2d(width, 2 * width, 3, config, weights.pp("conv2"))?,
                conv2d(2 * width, 4 * width, 3, config, weights.pp("conv3"))?,
            ],
            hidden: linear(4 * width * 4 * 4, 8 * width, weights.pp("hidden"))?,
            output: linear(8 * width, CLASSES, weights.pp("output"))?,
        })
    }

    /// The network with the committed weights.
    ///
    /// # Panics
    /// If the committed file does not hold this network's weights, which the tests rule out.
    pub fn committed() -> Self {
        Self::from_safetensors(COMMITTED).expect("the committed weights fit the network")
    }

    /// The network with weights from a safetensors file's bytes.
    ///
    /// # Errors
    /// A weight missing or of the wrong shape, or bytes that are no safetensors file.
    pub fn from_safetensors(bytes: &[u8]) -> candle_core::Result<Self> {
        // The width is read from the first convolution, so that a model of another width
        // (an earlier one, to compare) loads too.
        let tensors = candle_core::safetensors::load_buffer(bytes, &Device::Cpu)?;
        let width = tensors
            .get("conv1.weight")
            .map_or(WIDTH, |weight| weight.dims()[0]);
        let weights = VarBuilder::from_tensors(tensors, DType::F32, &Device::Cpu);
        Self::with_width(&weights, width)
    }

    /// The class scores (logits) of a batch shaped `[n, 1, 32, 32]`.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn logits(&self, batch: &Tensor) -> candle_core::Result<Tensor> {
        let mut x = batch.clone();
        for layer in &self.layers {
            x = layer.forward(&x)?.relu()?.max_pool2d(2)?;
        }
        let x = x.flatten_from(1)?;
        let x = self.hidden.forward(&x)?.relu()?;
        self.output.forward(&x)
    }

    /// Each cell's probability per class.
    ///
    /// # Panics
    /// Never: the shapes are fixed by the types.
    pub fn classify(&self, cells: &[[f32; CELL_SIDE * CELL_SIDE]]) -> Vec<[f32; CLASSES]> {
        if cells.is_empty() {
            return Vec::new();
        }
        let flat: Vec<f32> = cells.iter().flatten().copied().collect();
        let probabilities =
            Tensor::from_vec(flat, (cells.len(), 1, CELL_SIDE, CELL_SIDE), &Device::Cpu)
                .and_then(|batch| self.logits(&batch))
                .and_then(|logits| candle_nn::ops::softmax_last_dim(&logits))
                .and_then(|probabilities| probabilities.to_vec2::<f32>())
                .expect("the batch's shape is the network's");
        probabilities
            .into_iter()
            .map(|row| {
                let mut out = [0.0; CLASSES];
                out.copy_from_slice(&row);
                out
            })
            .collect()
    }
}
