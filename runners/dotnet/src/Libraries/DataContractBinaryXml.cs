using System.Runtime.Serialization;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// DataContractSerializer through XmlDictionaryWriter.CreateBinaryWriter (.NET Binary XML,
    /// [MC-NBFX], no dictionary), the seed's "DataContractSerializer (binary XML)".
    /// </summary>
    public sealed class DataContractBinaryXml : Serializer
    {
        public override string Name { get { return "datacontractserializer-binary"; } }
        public override string Format { get { return "nbfx"; } }
        public override string Library { get { return "DataContractSerializer + XmlDictionaryWriter.CreateBinaryWriter"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(DataContractSerializer)); } }
        public override string[] Labels { get { return new[] { "binary", "schemaless", "reflective", "copying-decode", "map-layout", "enum-as-name", "runtime-names" }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            return BinaryXml.Codec(new DataContractSerializer(spec.RootType, spec.Typed.KnownTypes));
        }
    }
}
