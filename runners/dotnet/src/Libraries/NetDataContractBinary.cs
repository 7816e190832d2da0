using System.Runtime.Serialization;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// NetDataContractSerializer through XmlDictionaryWriter.CreateBinaryWriter, the seed's
    /// "NetDataContractSerializer (binary)": its XML with CLR type and assembly names written
    /// as .NET Binary XML ([MC-NBFX], no dictionary); reading untrusted bytes instantiates the
    /// types they name, as with the text form.
    /// </summary>
    public sealed class NetDataContractBinary : Serializer
    {
        public override string Name { get { return "netdatacontractserializer-binary"; } }
        public override string Format { get { return "nbfx"; } }
        public override string Library { get { return "NetDataContractSerializer + XmlDictionaryWriter.CreateBinaryWriter"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(NetDataContractSerializer)); } }
        public override string[] Labels { get { return new[] { "binary", "schemaless", "reflective", "copying-decode", "map-layout", "platform-native", "unsafe-untrusted-input", "enum-as-name", "runtime-names" }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            return BinaryXml.Codec(new NetDataContractSerializer());
        }
    }
}
