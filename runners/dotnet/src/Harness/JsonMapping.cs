using System.Globalization;
using System.Numerics;
using System.Runtime.Serialization.Json;
using System.Xml;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>
    /// DataContractJsonSerializer's generic value: the platform's JSON reader
    /// (JsonReaderWriterFactory) presents JSON as an XML infoset, the "JSON-XML mapping"
    /// (a root element, a type attribute per value, `a:item item="name"` for member names that
    /// are not XML names), read here into canonical JSON. Its binary sibling is the same
    /// infoset in .NET Binary XML. Malformed input is the readers' XmlException.
    /// </summary>
    public static class JsonMapping
    {
        public static XmlDictionaryReader TextReader(byte[] b)
        {
            return JsonReaderWriterFactory.CreateJsonReader(b, XmlDictionaryReaderQuotas.Max);
        }

        public static XmlDictionaryReader BinaryReader(byte[] b)
        {
            return XmlDictionaryReader.CreateBinaryReader(b, XmlDictionaryReaderQuotas.Max);
        }

        public static JToken Read(XmlDictionaryReader r)
        {
            using (r)
            {
                r.MoveToContent();
                JToken value = Element(r, 0);
                while (r.Read())
                {
                    if (r.NodeType != XmlNodeType.Whitespace && r.NodeType != XmlNodeType.SignificantWhitespace)
                        throw new XmlException("JSON mapping: " + r.NodeType + " after the root element");
                }
                return value;
            }
        }

        /// <summary>The element the reader is on, as a value; leaves the reader after its end.</summary>
        static JToken Element(XmlReader r, int depth)
        {
            if (r.NodeType != XmlNodeType.Element)
                throw new XmlException("JSON mapping: expected an element, found " + r.NodeType);
            if (depth > CanonicalJson.MaxDepth)
            {
                r.Skip();
                return CanonicalJson.TooDeep();
            }
            string type = r.GetAttribute("type") ?? "string";
            bool empty = r.IsEmptyElement;
            r.Read();
            JToken value;
            if (type == "object" || type == "array")
            {
                var map = new JObject();
                var list = new JArray();
                while (!empty && r.NodeType != XmlNodeType.EndElement)
                {
                    if (r.NodeType != XmlNodeType.Element)
                    {
                        if (!r.Read())
                            throw new XmlException("JSON mapping: input ends inside an " + type);
                        continue;
                    }
                    if (type == "array")
                    {
                        list.Add(Element(r, depth + 1));
                        continue;
                    }
                    string name = r.LocalName == "item" && r.NamespaceURI == "item" ? r.GetAttribute("item") : r.LocalName;
                    map[name] = Element(r, depth + 1); // a repeated name: the last one, as most JSON readers
                }
                value = type == "object" ? (JToken)map : list;
            }
            else
            {
                string text = empty ? "" : r.ReadContentAsString();
                if (!empty && r.NodeType != XmlNodeType.EndElement)
                    throw new XmlException("JSON mapping: " + r.NodeType + " inside a " + type);
                value = Scalar(type, text);
            }
            if (!empty)
                r.ReadEndElement();
            return value;
        }

        static JToken Scalar(string type, string text)
        {
            switch (type)
            {
                case "string":
                    return new JValue(text);
                case "null":
                    return JValue.CreateNull();
                case "boolean":
                    return text == "true" ? new JValue(true) : text == "false" ? new JValue(false) : CanonicalJson.Other("boolean " + text);
                case "number":
                    BigInteger i;
                    if (BigInteger.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out i))
                        return CanonicalJson.Integer(i);
                    double d;
                    if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out d))
                        return CanonicalJson.Float(d);
                    return CanonicalJson.Other("number " + text);
                default:
                    return CanonicalJson.Other(type + " " + text);
            }
        }
    }
}
